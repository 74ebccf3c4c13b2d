// Package wallet serves the paying wallet's operator routes (openapi/wallet.yaml: pause and
// resume a replica, its wallet, what it signed, replace or cancel a transaction in flight, the
// fleet) for the services that pay from a wallet, the relayer and the faucet: written once here,
// mounted by each beside its own routes. It maps the kit's values (pause, gate, txmgr) to the
// document's types; the refusals among them are answered by service/edge/paying, through the
// service's one function from an error to its answer.
package wallet

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/go-chi/chi/v5"

	"github.com/seed018cc74c/vaultd/gen/walletapi"
	"github.com/seed018cc74c/vaultd/gen/walletserver"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/gate"
	"github.com/seed018cc74c/vaultd/service/kit/pause"
	"github.com/seed018cc74c/vaultd/service/kit/txmgr"
)

// Routes are what the operator routes read and act on in a paying service.
type Routes struct {
	Switch *pause.Switch // the operator's pause of this replica
	// Wallet is the replica's transaction manager and balance gate, or the service's refusal
	// while it has none (a relayer standing by, with no operator key).
	Wallet func() (*txmgr.Manager, *gate.Gate, error)
	// List is a page of what wallet (this replica's, or another's for the fleet) signed, from
	// the service's record.
	List func(ctx context.Context, wallet common.Address, q txmgr.PageQuery) (txmgr.Page, error)
}

var _ walletserver.StrictServerInterface = (*Routes)(nil)

// Admit is the service's admissions (edge.HandlerOptions.Admit) with admin, its check of the
// operator's requests (a per-IP limit that a wrong key counts against too), on every route here
// and on the operator's document (edge.AdminDocRoutes).
func Admit(admin edge.Admission, service map[string]edge.Admission) map[string]edge.Admission {
	for _, route := range append([]string{"POST /admin/pause", "POST /admin/resume", "GET /admin/wallet", "GET /admin/transactions",
		"POST /admin/transactions/{nonce}/replace", "POST /admin/transactions/{nonce}/cancel", "GET /admin/fleet"}, edge.AdminDocRoutes...) {
		service[route] = admin
	}
	return service
}

// Mount registers the routes on rt; answer is the service's one function from an error to its
// HTTP answer (answers.go's answer), which answers paying's refusals among the rest.
func (w *Routes) Mount(rt chi.Router, answer func(error) *edge.Error) {
	strict := walletserver.NewStrictHandlerWithOptions(w, nil, walletserver.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  edge.RequestErrorHandler,
		ResponseErrorHandlerFunc: func(rw http.ResponseWriter, r *http.Request, err error) { edge.WriteError(rw, r, answer(err)) },
	})
	walletserver.HandlerWithOptions(strict, walletserver.ChiServerOptions{BaseRouter: rt, ErrorHandlerFunc: edge.RequestErrorHandler})
}

// Pause and Resume are the operator's switch of this replica (service/kit/pause).
func (w *Routes) Pause(ctx context.Context, _ walletserver.PauseRequestObject) (walletserver.PauseResponseObject, error) {
	st, err := w.Switch.Set(ctx, true)
	return walletserver.Pause200JSONResponse{Body: PauseStateOf(st)}, err
}

func (w *Routes) Resume(ctx context.Context, _ walletserver.ResumeRequestObject) (walletserver.ResumeResponseObject, error) {
	st, err := w.Switch.Set(ctx, false)
	return walletserver.Resume200JSONResponse{Body: PauseStateOf(st)}, err
}

// GetTransactions lists what this replica's wallet signed, from the service's record.
func (w *Routes) GetTransactions(ctx context.Context, req walletserver.GetTransactionsRequestObject) (walletserver.GetTransactionsResponseObject, error) {
	tx, _, err := w.Wallet()
	if err != nil {
		return nil, err
	}
	q := txmgr.PageQuery{State: string(edge.Value(req.Params.State)), Limit: 50}
	if req.Params.Limit != nil {
		q.Limit = *req.Params.Limit
	}
	if q.Before, err = edge.PageBefore(req.Params.Cursor, txmgr.Newest); err != nil {
		return nil, err
	}
	page, err := w.List(ctx, tx.From(), q)
	if err != nil {
		return nil, err
	}
	return walletserver.GetTransactions200JSONResponse{Body: walletapi.TransactionPage{
		Transactions: transactions(page.Transactions), NextCursor: edge.PageCursor(page.Next)}}, nil
}

// GetFleet lists every replica's wallet and its transactions in flight, from the database the
// replicas share (pause.Switch.Fleet, the record of what each wallet signed): any replica,
// standing by or not, answers for the whole fleet.
func (w *Routes) GetFleet(ctx context.Context, _ walletserver.GetFleetRequestObject) (walletserver.GetFleetResponseObject, error) {
	replicas, err := w.Switch.Fleet(ctx)
	if err != nil {
		return nil, err
	}
	fleet := walletapi.Fleet{Replicas: make([]walletapi.FleetReplica, 0, len(replicas))}
	for _, rp := range replicas {
		page, err := w.List(ctx, common.HexToAddress(rp.Wallet), txmgr.PageQuery{State: txmgr.ListedPending, Limit: 100, Before: txmgr.Newest})
		if err != nil {
			return nil, fmt.Errorf("list %s's transactions: %w", rp.Wallet, err)
		}
		fleet.Replicas = append(fleet.Replicas, walletapi.FleetReplica{Replica: rp.Replica, Wallet: rp.Wallet, Since: rp.Since,
			Paused: rp.Paused, PausedSince: rp.PausedSince, Transactions: transactions(page.Transactions)})
	}
	return walletserver.GetFleet200JSONResponse{Body: fleet}, nil
}

// ReplaceTransaction and CancelTransaction are the operator's "speed up" and "cancel" of a
// transaction in flight (txmgr.Manager.Bump, Cancel): the watch loop's next round replaces it
// (with a transfer of nothing to the wallet itself, for a cancel: the work it carried ends and
// may be asked again). The wallet named must be this replica's (409 WALLET_MISMATCH): nonce N
// of another is another transaction.
func (w *Routes) ReplaceTransaction(ctx context.Context, req walletserver.ReplaceTransactionRequestObject) (walletserver.ReplaceTransactionResponseObject, error) {
	replacing, err := w.replace(req.Params.Wallet, req.Nonce, (*txmgr.Manager).Bump)
	return walletserver.ReplaceTransaction202JSONResponse{Body: replacing}, err
}

func (w *Routes) CancelTransaction(ctx context.Context, req walletserver.CancelTransactionRequestObject) (walletserver.CancelTransactionResponseObject, error) {
	replacing, err := w.replace(req.Params.Wallet, req.Nonce, (*txmgr.Manager).Cancel)
	return walletserver.CancelTransaction202JSONResponse{Body: replacing}, err
}

// replace is a replace or a cancel (how) of this replica's transaction at nonce, its wallet
// named.
func (w *Routes) replace(named string, nonce int64, how func(*txmgr.Manager, uint64) (common.Hash, error)) (walletapi.Replacing, error) {
	tx, _, err := w.Wallet()
	if err != nil {
		return walletapi.Replacing{}, err
	}
	if err := edge.SameWallet(named, tx.From()); err != nil {
		return walletapi.Replacing{}, err
	}
	replacing, err := how(tx, uint64(nonce))
	return walletapi.Replacing{Nonce: nonce, Replacing: replacing.Hex()}, err
}

// GetWallet is the wallet for its operator (gate.Wallet).
func (w *Routes) GetWallet(ctx context.Context, _ walletserver.GetWalletRequestObject) (walletserver.GetWalletResponseObject, error) {
	tx, g, err := w.Wallet()
	if err != nil {
		return nil, err
	}
	next, _ := tx.State()
	return walletserver.GetWallet200JSONResponse{Body: walletOf(g.Wallet(ctx, next))}, nil
}

// PauseStateOf is a replica's pause as the document shapes it (the routes' answer, and the
// payload of the pause's webhooks).
func PauseStateOf(st pause.State) walletapi.PauseState {
	return walletapi.PauseState{Replica: st.Replica, Paused: st.Paused, Since: st.Since}
}

// walletOf is the wallet as the document shapes it: amounts in wei as decimal strings, what is
// unknown left out.
func walletOf(w gate.Wallet) walletapi.Wallet {
	out := walletapi.Wallet{Address: w.Address.Hex(), Balance: edge.Decimal(w.Balance), Reserved: w.Reserved.String(),
		MinBalance: w.Min.String(), GateOpen: w.Open,
		Nonce: walletapi.WalletNonce{Next: int64(w.Nonce.Next), Mined: edge.Int64(w.Nonce.Mined), Pending: edge.Int64(w.Nonce.Pending)}}
	if w.Budget.Limit != nil {
		window := int64(w.Budget.Window / time.Second)
		out.SpendLimit, out.SpendWindowSeconds, out.Spent = edge.Decimal(w.Budget.Limit), &window, edge.Decimal(w.Spent)
	}
	if !math.IsInf(w.TimeToEmpty, 1) {
		empty := int64(w.TimeToEmpty)
		out.TimeToEmptySeconds = &empty
	}
	return out
}

func transactions(ls []txmgr.Listed) []walletapi.Transaction {
	out := make([]walletapi.Transaction, len(ls))
	for i, l := range ls {
		t := walletapi.Transaction{Nonce: int64(l.Nonce), State: walletapi.TransactionState(l.State), Purpose: l.Purpose,
			Versions: make([]walletapi.TransactionVersion, len(l.Versions)), MinedHash: edge.Omitted(l.MinedHash),
			BlockNumber: edge.Int64(l.BlockNumber), Reason: edge.Omitted(l.Reason), UpdatedAt: l.UpdatedAt}
		for j, v := range l.Versions {
			t.Versions[j] = walletapi.TransactionVersion{Hash: v.Hash, MaxFeePerGas: edge.Decimal(v.MaxFeePerGas), MaxPriorityFeePerGas: edge.Decimal(v.MaxPriorityFeePerGas)}
		}
		out[i] = t
	}
	return out
}
