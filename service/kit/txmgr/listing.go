package txmgr

import (
	"errors"
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

// PageQuery is what a listing is asked for: the state kept ("" for any), how many, and the
// nonce to list below.
type PageQuery struct {
	State  string
	Limit  int
	Before uint64
}

// ErrBadCursor is a page cursor that no listing gave.
var ErrBadCursor = errors.New("cursor: not one a listing gave")

// PageQueryOf reads a listing's parameters as a route has them: state (nil: any), limit (50 when
// nil) and cursor (the newest first when nil).
func PageQueryOf(state *string, limit *int, cursor *string) (PageQuery, error) {
	q := PageQuery{Limit: 50, Before: 1 << 62}
	if state != nil {
		q.State = *state
	}
	if limit != nil {
		q.Limit = *limit
	}
	if cursor != nil && *cursor != "" {
		n, err := strconv.ParseUint(*cursor, 10, 62)
		if err != nil {
			return q, ErrBadCursor
		}
		q.Before = n
	}
	return q, nil
}

// Cursor is the cursor of the page after one ending at nonce.
func Cursor(nonce uint64) *string {
	c := strconv.FormatUint(nonce, 10)
	return &c
}

// Paged reads one page of a listing: fetch returns up to n transactions below nonce before,
// newest first (fewer: none are left); those in q's state are kept, up to its limit. next is the
// cursor of what is left, nil when nothing is.
func Paged(q PageQuery, fetch func(before uint64, n int) ([]Listed, error)) (page []Listed, next *string, err error) {
	const batch = 200
	before := q.Before
	page = []Listed{}
	for {
		got, err := fetch(before, batch)
		if err != nil {
			return nil, nil, err
		}
		for _, l := range got {
			before = l.Nonce
			if q.State == "" || l.State == q.State {
				page = append(page, l)
			}
			if len(page) == q.Limit {
				return page, Cursor(before), nil
			}
		}
		if len(got) < batch {
			return page, nil, nil
		}
	}
}
