package txmgr

import (
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// Listed is a transaction of the wallet as an operator's listing shows it, from the record each
// service writes before it sends a version.
type Listed struct {
	Nonce       uint64
	State       string // ListedPending, ListedMined or ListedFailed
	Purpose     string // what it pays for: "reveal 0x…" (the nullifier), "claim 0x…" (the address)
	Versions    []Version
	MinedHash   string  // the version mined; "" when none is
	BlockNumber *uint64 // where it was mined, when known
	Reason      string  // why it failed, when known
	UpdatedAt   time.Time
}

// Version is one signed version of a listed transaction; the fees are known for the newest (nil
// for the others).
type Version struct {
	Hash                 string
	MaxFeePerGas         *big.Int
	MaxPriorityFeePerGas *big.Int
}

// The states of a listed transaction: in flight; mined (successfully); failed (mined and
// reverted, or never to be mined: given up, its nonce taken by another transaction).
const (
	ListedPending = "pending"
	ListedMined   = "mined"
	ListedFailed  = "failed"
)

// Page is one page of listed transactions, newest nonce first; Next, when something is left, is
// the Before of the page after it.
type Page struct {
	Transactions []Listed
	Next         *uint64
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
		out[len(out)-1].MaxFeePerGas, out[len(out)-1].MaxPriorityFeePerGas = tx.GasFeeCap(), tx.GasTipCap()
	}
	return out
}

// PageQuery is what a listing is asked for: the state kept ("" for any), how many, and the
// nonce to list below (Newest for the newest first).
type PageQuery struct {
	State  string
	Limit  int
	Before uint64
}

// Newest is the Before of a listing's first page: above any nonce.
const Newest uint64 = 1 << 62

// Paged reads one page of a listing: fetch returns up to n transactions below nonce before,
// newest first (fewer: none are left); those in q's state are kept, up to its limit.
func Paged(q PageQuery, fetch func(before uint64, n int) ([]Listed, error)) (Page, error) {
	const batch = 200
	before := q.Before
	page := Page{Transactions: []Listed{}}
	for {
		got, err := fetch(before, batch)
		if err != nil {
			return Page{}, err
		}
		for _, l := range got {
			before = l.Nonce
			if q.State == "" || l.State == q.State {
				page.Transactions = append(page.Transactions, l)
			}
			if len(page.Transactions) == q.Limit {
				page.Next = &before
				return page, nil
			}
		}
		if len(got) < batch {
			return page, nil
		}
	}
}
