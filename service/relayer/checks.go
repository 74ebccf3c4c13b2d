package relayer

import (
	"context"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"golang.org/x/sync/errgroup"

	"github.com/seed018cc74c/vaultd/service/kit/ratelimit"
	"github.com/seed018cc74c/vaultd/service/relayer/funding"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// A reveal's steps before its send (revealSteps, reveal.go), each returning the reason that stops
// the reveal there, and the request they read, as parse reads it.

// request is a parsed reveal request. The check-3 and check-4 failures are kept, not returned,
// so that the chain checks (1 and 2) are reported first.
type RevealRequest struct {
	signals      zk.Signals
	nullifier    common.Hash
	proof        zk.Proof
	proofErr     error
	recipient    common.Address
	recipientErr error
	token        common.Address
	amount       *big.Int
	offer        funding.Offer // what pays for it: a fee, a sponsor's key or voucher; none: the treasury
}

// checkChain is checks 1 and 2, which read the chain, concurrently (each in its span): the
// nullifier is unspent, the root is one of the tree's recent roots. The order of the checks
// (docs/relayer.md, "Before anything is sent") decides which is reported, and the chain being unavailable comes before both.
func (r *Relayer) checkChain(ctx context.Context, a *attempt) error {
	var spent bool
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		nctx, end := r.span(gctx, "check.nullifier")
		spent, err = r.reads.isSpent(nctx, a.in.nullifier)
		trace.SpanFromContext(nctx).SetAttributes(attribute.Bool("vaultd.spent", spent))
		end(orUnavailable(err))
		return err
	})
	g.Go(func() (err error) {
		rctx, end := r.span(gctx, "check.root")
		a.root, err = r.reads.rootAge(rctx, common.BigToHash(a.in.signals[zk.SignalMerkleRoot]))
		trace.SpanFromContext(rctx).SetAttributes(attribute.Bool("vaultd.root_known", a.root.Known), attribute.Int("vaultd.root_age", int(a.root.Age)))
		end(orUnavailable(err))
		return err
	})
	if err := g.Wait(); err != nil {
		return chainUnavailable(err)
	}
	if spent {
		return reject(NullifierUsed, "the nullifier is already spent")
	}
	if !a.root.Known {
		return reject(UnknownRoot, "root %#x is not a known root of the commitment tree", a.in.signals[zk.SignalMerkleRoot])
	}
	return nil
}

// checkProof is check 3 as parse found it (malformed, out of range): reported after the chain
// checks.
func (r *Relayer) checkProof(_ context.Context, a *attempt) error { return a.in.proofErr }

// checkRecipient is check 4: the recipient as parse read it, then checkRecipientAllowed.
func (r *Relayer) checkRecipient(_ context.Context, a *attempt) error {
	if a.in.recipientErr != nil {
		return a.in.recipientErr
	}
	return r.checkRecipientAllowed(a.in)
}

// checkRecipientAllowed is the rest of check 4: the recipient is not a contract that would keep
// what the reveal sends it: the vault, the token revealed, or another of the vault's tokens the
// relayer knows (ContractsConfig.Tokens). A wallet app scanning a token payment request
// (EIP-681, ethereum:<token>@<chain>/transfer?address=<recipient>) may have taken the token's
// address for the recipient's. The message names what the recipient is, not its address.
func (r *Relayer) checkRecipientAllowed(in RevealRequest) error {
	what := ""
	switch c := r.cfg.Contracts; {
	case in.recipient == c.Vault || in.recipient == c.NullifierRegistry || in.recipient == c.CommitmentTree:
		what = "the vault"
	case in.recipient == in.token:
		what = "the token being revealed"
	case slices.Contains(c.Tokens, in.recipient):
		what = "one of the vault's tokens"
	default:
		return nil
	}
	return reject(RecipientNotAllowed, "the recipient is %s: what it is sent would be lost; prove the reveal again to the recipient's own address", what)
}

// checkSignals is check 5: the request's amount, recipient and token are the ones the proof is
// for; with a fee, signal [3] binds the recipient, the fee and its receiver (zk.FeeBinding).
func (r *Relayer) checkSignals(_ context.Context, a *attempt) error {
	in := a.in
	if in.amount.Cmp(in.signals[zk.SignalAmount]) != 0 {
		return reject(SignalMismatch, "amount %s is not the proof's amount %s", in.amount, in.signals[zk.SignalAmount])
	}
	if fee := in.offer.Fee; fee != nil {
		if zk.FeeBinding(in.recipient, fee.Fee).Cmp(in.signals[zk.SignalRecipient]) != 0 {
			return reject(SignalMismatch, "recipient, fee.amount or fee.receiver is not the proof's (signal [3] is not their feeBinding)")
		}
	} else if new(big.Int).SetBytes(in.recipient.Bytes()).Cmp(in.signals[zk.SignalRecipient]) != 0 {
		return reject(SignalMismatch, "recipient is not the proof's recipient")
	}
	id, err := tokenid.Compute(in.token, r.chainID)
	if err != nil {
		return err
	}
	if id.Cmp(in.signals[zk.SignalTokenID]) != 0 {
		return reject(SignalMismatch, "tokenAddress is not the proof's token (tokenId mismatch on chain %d)", r.chainID)
	}
	return nil
}

// verify is check 6, with VERIFICATION_KEY_FILE: the proof verifies off chain.
func (r *Relayer) verify(_ context.Context, a *attempt) error {
	if err := zk.Verify(r.vk, a.in.proof, a.in.signals[:]); err != nil {
		return reject(InvalidProof, "%v", err)
	}
	return nil
}

// simulateReveal is check 7: the vault's reveal call, run once (simulate), and the gas limit it
// is sent with.
func (r *Relayer) simulateReveal(ctx context.Context, a *attempt) error {
	pa, pb, pc := a.in.proof.CallArgs()
	if fee := a.in.offer.Fee; fee != nil {
		a.data = vaultABI.PackRevealWithFee(pa, pb, pc, [6]*big.Int(a.in.signals), a.in.recipient, fee.Amount, fee.Receiver)
	} else {
		a.data = vaultABI.PackReveal(pa, pb, pc, [6]*big.Int(a.in.signals), a.in.recipient)
	}
	limit, est, err := r.simulate(ctx, a.data, a.change, a.in.offer.Fee != nil)
	trace.SpanFromContext(ctx).SetAttributes(attribute.Int64("vaultd.gas_limit", int64(limit)))
	a.gas, a.simGas = limit, est
	return err
}

// holdRootAge is the root guard (holdRoot): the relayer's own inserts in flight ahead of the
// reveal would not push its root out of the tree's history. A reveal with change holds its place
// among them.
func (r *Relayer) holdRootAge(ctx context.Context, a *attempt) error {
	release, err := r.holdRoot(ctx, a.root.Age, a.change)
	if err != nil {
		return err
	}
	a.release = release
	a.took(func(context.Context) { release() })
	return nil
}

// hold takes the nullifier across the replicas sharing a Redis: another replica may be sending
// its reveal already (errHeldElsewhere).
func (r *Relayer) hold(ctx context.Context, a *attempt) error {
	hold, err := r.holds.Hold(ctx, a.in.nullifier)
	if err != nil {
		return holdsUnavailable(err)
	}
	trace.SpanFromContext(ctx).SetAttributes(attribute.Bool("vaultd.held", hold != nil))
	if hold == nil {
		return errHeldElsewhere
	}
	a.hold = hold
	a.took(func(ctx context.Context) { r.giveBack(ctx, a.in.nullifier, hold) })
	return nil
}

// countSend counts the reveal against the per-recipient and the total limits (allowSend).
func (r *Relayer) countSend(ctx context.Context, a *attempt) error {
	if err := r.allowSend(ctx, a.in.recipient); err != nil {
		return err
	}
	a.took(func(ctx context.Context) { r.uncountSend(ctx, a.in.recipient) })
	return nil
}

// allowSend counts a reveal about to be sent against the per-recipient and the total limits. A
// reveal refused by one is counted by neither.
func (r *Relayer) allowSend(ctx context.Context, recipient common.Address) error {
	d, err := r.perRecipient.Allow(ctx, recipient.Hex())
	if err != nil {
		return ratelimit.Unavailable(err)
	}
	if !d.OK {
		r.metrics.rateLimited.WithLabelValues("recipient").Inc()
		return ratelimit.Exceeded(r.cfg.Limits.PerRecipient, "reveals per recipient", d.Reset)
	}
	d, err = r.total.Allow(ctx, "")
	if err != nil || !d.OK {
		_ = r.perRecipient.Undo(ctx, recipient.Hex())
	}
	if err != nil {
		return ratelimit.Unavailable(err)
	}
	if !d.OK {
		r.metrics.rateLimited.WithLabelValues("total").Inc()
		return ratelimit.Exceeded(r.cfg.Limits.Total, "reveals in total", d.Reset)
	}
	return nil
}

// uncountSend takes back a reveal that allowSend counted but that was not sent.
func (r *Relayer) uncountSend(ctx context.Context, recipient common.Address) {
	_ = r.perRecipient.Undo(ctx, recipient.Hex())
	_ = r.total.Undo(ctx, "")
}
