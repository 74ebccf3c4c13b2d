package edge

import "math/big"

// Helpers for each service's apimapping.go, where domain values take the documents' shapes:
// amounts as decimal strings, numbers as int64, what is unknown left out.

// Decimal is an amount as the documents write it (a decimal string); nil stays absent.
func Decimal(v *big.Int) *string {
	if v == nil {
		return nil
	}
	s := v.String()
	return &s
}

// Int64 is a nonce, block number or count as the documents carry it; nil stays absent.
func Int64(v *uint64) *int64 {
	if v == nil {
		return nil
	}
	n := int64(*v)
	return &n
}

// Omitted is s, absent when empty.
func Omitted(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Value is *p, or the zero value when p is nil (an optional parameter).
func Value[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// Schema is GET /health's schema, each owner's migration (sqldb.DB.Versions); absent without a
// database.
func Schema(versions map[string]int64) *map[string]int64 {
	if versions == nil {
		return nil
	}
	return &versions
}
