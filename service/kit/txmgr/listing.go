package txmgr

import (
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// Listed is a transaction of the wallet as GET /admin/transactions lists it (the relayer's and
// the faucet's OpenAPI documents map their Transaction schema to it, x-go-type), from the record
// each service writes before it sends a version.
type Listed struct {
	Nonce       uint64    `json:"nonce"`
	State       string    `json:"state"`   // ListedPending, ListedMined or ListedFailed
	Purpose     string    `json:"purpose"` // what it pays for: "reveal 0x…" (the nullifier), "claim 0x…" (the address)
	Versions    []Version `json:"versions"`
	MinedHash   string    `json:"minedHash,omitempty"`
	BlockNumber *uint64   `json:"blockNumber,omitempty"`
	Reason      string    `json:"reason,omitempty"` // why it failed, when known
	UpdatedAt   time.Time `json:"updatedAt"`
}

// Version is one signed version of a listed transaction; the fees are known for the newest.
type Version struct {
	Hash                 string `json:"hash"`
	MaxFeePerGas         string `json:"maxFeePerGas,omitempty"`
	MaxPriorityFeePerGas string `json:"maxPriorityFeePerGas,omitempty"`
}

// The states of a listed transaction: in flight; mined (successfully); failed (mined and
// reverted, or never to be mined: given up, its nonce taken by another transaction).
const (
	ListedPending = "pending"
	ListedMined   = "mined"
	ListedFailed  = "failed"
)

// Page is one page of listed transactions, newest nonce first; NextCursor reads on.
type Page struct {
	Transactions []Listed `json:"transactions"`
	NextCursor   *string  `json:"nextCursor,omitempty"`
}

// Versions lists the recorded versions (comma-separated hashes, oldest first) with the fees of
// the newest, whose bytes are raw (0x hex; its fees are left out if they do not decode).
func Versions(hashes, raw string) []Version {
	var out []Version
	for _, h := range strings.Split(hashes, ",") {
		if h != "" {
			out = append(out, Version{Hash: h})
		}
	}
	tx := new(types.Transaction)
	if b, err := hexutil.Decode(raw); err == nil && len(out) > 0 && tx.UnmarshalBinary(b) == nil && tx.Hash().Hex() == out[len(out)-1].Hash {
		out[len(out)-1].MaxFeePerGas, out[len(out)-1].MaxPriorityFeePerGas = tx.GasFeeCap().String(), tx.GasTipCap().String()
	}
	return out
}

// PageQuery reads a listing's limit (50 when nil) and cursor (the nonce to list below; the
// newest first when nil); ok is false for a cursor that is not one.
func PageQuery(limit *int, cursor *string) (lim int, before uint64, ok bool) {
	lim, before = 50, 1<<62
	if limit != nil {
		lim = *limit
	}
	if cursor == nil || *cursor == "" {
		return lim, before, true
	}
	n, err := strconv.ParseUint(*cursor, 10, 62)
	return lim, n, err == nil
}

// Cursor is the cursor of the page after one ending at nonce.
func Cursor(nonce uint64) *string {
	c := strconv.FormatUint(nonce, 10)
	return &c
}

// Paged reads one page of a listing: fetch returns up to n transactions below nonce before,
// newest first (fewer: none are left); those in state ("" for any) are kept, up to limit. next
// is the cursor of what is left, nil when nothing is.
func Paged(state string, before uint64, limit int, fetch func(before uint64, n int) ([]Listed, error)) (page []Listed, next *string, err error) {
	const batch = 200
	page = []Listed{}
	for {
		got, err := fetch(before, batch)
		if err != nil {
			return nil, nil, err
		}
		for _, l := range got {
			before = l.Nonce
			if state == "" || l.State == state {
				page = append(page, l)
			}
			if len(page) == limit {
				return page, Cursor(before), nil
			}
		}
		if len(got) < batch {
			return page, nil, nil
		}
	}
}
