// Package card is the card flow: a sender commits tokens into the vault and gets a
// card (the note's secrets in one string, fit for a QR code); the recipient's device turns the
// card into a reveal request (a Groth16 proof against the commitment tree, rebuilt from the
// chain's CommitmentInserted events) and either hands it to a relayer or submits it itself.
// The card format and the proving, which need no chain, are in service/vault/card/note; this package
// names them too, so that the flow reads as one.
package card

import "github.com/seed018cc74c/vaultd/service/vault/card/note"

// Scheme opens every card string.
const Scheme = note.Scheme

type (
	// Card is what a sender hands over (note.Card).
	Card = note.Card
	// Request is a reveal request exactly as the relayer accepts it (note.Request).
	Request = note.Request
	// Home is the chain and vault a card link leaves out (note.Home).
	Home = note.Home
)

var (
	// Parse reads a card string (note.Parse).
	Parse = note.Parse
	// ReadLink reads a card from a link or a card string, at home (note.ReadLink).
	ReadLink = note.ReadLink
	// NewSecrets draws a note's two secrets (note.NewSecrets).
	NewSecrets = note.NewSecrets
	// ProveFrom proves a reveal against a tree, with no chain (note.ProveFrom).
	ProveFrom = note.ProveFrom
	// ProvePaying is ProveFrom for a reveal paying a relayer's fee (note.ProvePaying).
	ProvePaying = note.ProvePaying
	// ProveKeeping is ProvePaying with the change given (note.ProveKeeping).
	ProveKeeping = note.ProveKeeping
	// ChangeOf draws a partial reveal's change card (note.ChangeOf).
	ChangeOf = note.ChangeOf
	// ErrUnknownCard is a card whose deposit is not in the tree (note.ErrUnknownCard).
	ErrUnknownCard = note.ErrUnknownCard
)
