package deploy

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/seed018cc74c/vaultd/service/kit/atomicfile"
)

// Journal is the deployment's record of what it sent, kept in a file beside deployment.json
// (deployment.journal.json) and written before each transaction leaves: a run that died halfway
// finds there the transaction each step sent, and follows it instead of sending another.
type Journal struct {
	path string
	// ChainID and Deployer are the chain and wallet the journal's transactions are for: a run
	// for another chain or deployer refuses the journal rather than mixing two deployments.
	ChainID  uint64             `json:"chainId"`
	Deployer common.Address     `json:"deployer"`
	Steps    map[string]*Record `json:"steps"`
}

// Record is one step's transaction: signed before it is recorded, recorded before it is sent.
type Record struct {
	Nonce uint64        `json:"nonce"`
	Hash  common.Hash   `json:"hash"`
	Raw   hexutil.Bytes `json:"raw"` // the signed transaction, broadcast again if no node knows it
	// What the mined transaction showed, once it did.
	Block   uint64         `json:"block,omitempty"`
	GasUsed uint64         `json:"gasUsed,omitempty"`
	Address common.Address `json:"address,omitzero"` // what the step made: a contract, a token
}

// Tx decodes the signed transaction.
func (r *Record) Tx() (*types.Transaction, error) {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(r.Raw); err != nil {
		return nil, fmt.Errorf("journal: transaction %s: %w", r.Hash, err)
	}
	return tx, nil
}

// JournalPath is where the journal of the deployment file out is kept.
func JournalPath(out string) string {
	ext := filepath.Ext(out)
	return out[:len(out)-len(ext)] + ".journal.json"
}

// NewJournal is a journal kept in memory only: for a chain that lives no longer than the run
// (the dev chain's own deployment).
func NewJournal() *Journal { return &Journal{Steps: map[string]*Record{}} }

// OpenJournal reads the journal at path, or starts an empty one if there is none.
func OpenJournal(path string) (*Journal, error) {
	j := &Journal{path: path, Steps: map[string]*Record{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return j, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, j); err != nil {
		return nil, fmt.Errorf("%s: not a deployment journal: %w", path, err)
	}
	if j.Steps == nil {
		j.Steps = map[string]*Record{}
	}
	return j, nil
}

// put records step's transaction and saves the journal before returning.
func (j *Journal) put(step string, r *Record) error {
	j.Steps[step] = r
	return j.save()
}

// drop forgets step's transaction (it never left, or another took its nonce).
func (j *Journal) drop(step string) error {
	delete(j.Steps, step)
	return j.save()
}

// save writes the journal durably: a temporary file synced, then renamed over the old one, so a
// crash leaves the old journal or the new one, never half of either. An in-memory journal (no
// path) is not written.
func (j *Journal) save() error {
	if j.path == "" {
		return nil
	}
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(j.path, append(data, '\n'))
}
