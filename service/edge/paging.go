package edge

import "strconv"

// The cursor of a listing's page is, on the wire, the decimal nonce below which the next page
// starts (GET /admin/transactions); the listings themselves take and give the nonce.

// PageBefore reads a cursor a listing gave: nil or empty is the first page (first); anything
// else that is not a nonce is a 400.
func PageBefore(cursor *string, first uint64) (uint64, error) {
	if cursor == nil || *cursor == "" {
		return first, nil
	}
	n, err := strconv.ParseUint(*cursor, 10, 62)
	if err != nil {
		return 0, InvalidRequest("cursor: not one a listing gave")
	}
	return n, nil
}

// PageCursor is the cursor of the page after one that ended at nonce next; nil when nothing is left.
func PageCursor(next *uint64) *string {
	if next == nil {
		return nil
	}
	c := strconv.FormatUint(*next, 10)
	return &c
}
