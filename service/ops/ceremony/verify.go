package ceremony

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/consensys/gnark/backend/groth16/bn254/mpcsetup"

	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// Verify re-derives the whole ceremony from its transcript and reports each step it checked:
// every file is the one ceremony.json records, every contribution proves a correct update of
// the one before it, phase 1 sealed with its beacon is commons.bin, phase 2's starting point
// follows from it and the circuit, and phase 2 sealed with its beacon gives exactly the keys in
// dir/keys. It needs no secret, and trusts nothing in dir but what it re-derives: anyone can
// run it. A ceremony still open is verified as far as it goes, and then answered ErrOpen: it has
// produced no keys yet, and keys found in dir/keys beside it are refused (they cannot come from
// this transcript).
func Verify(dir string, report func(format string, args ...any)) error {
	m, err := ReadManifest(dir)
	if err != nil {
		return err
	}
	ccs, hash, err := circuit()
	if err != nil {
		return err
	}
	if hash != m.CircuitHash {
		return errors.New("the reveal circuit is not the one this ceremony was for (circuitHash differs)")
	}
	report("circuit %s: %d constraints, domain %d, sha256 %s", m.Circuit, m.Constraints, m.DomainSize, m.CircuitHash)

	// Phase 1.
	prev := mpcsetup.NewPhase1(m.DomainSize)
	for i, c := range m.Phase1.Contributions {
		next := new(mpcsetup.Phase1)
		if err := readInto(dir, c, next); err != nil {
			return err
		}
		if err := prev.Verify(next); err != nil {
			return fmt.Errorf("phase 1 contribution %d (%s, by %q): %w", i+1, c.File, c.Name, err)
		}
		report("phase 1 contribution %d by %q: sha256 %s: ok", i+1, c.Name, c.SHA256)
		prev = next
	}
	if !m.Phase1.finalized() {
		report("phase 1 is open: %d contributions so far", len(m.Phase1.Contributions))
		return open(dir, 1)
	}
	beacon, err := hex.DecodeString(m.Phase1.Beacon)
	if err != nil {
		return fmt.Errorf("phase 1 beacon: %w", err)
	}
	commons := prev.Seal(beacon)
	if err := sameAsFile(filepath.Join(dir, phase1Sealed), &commons); err != nil {
		return err
	}
	report("phase 1 sealed with beacon %s: %s: ok", m.Phase1.Beacon, phase1Sealed)

	// Phase 2.
	if m.Phase2 == nil {
		return fmt.Errorf("phase 1 is finalized but %s has no phase 2", ManifestFile)
	}
	start, evals, err := startPhase2(hash, ccs, &commons)
	if err != nil {
		return err
	}
	if err := sameAsFile(filepath.Join(dir, phase2Start), start); err != nil {
		return err
	}
	report("phase 2 starting point: %s: ok", phase2Start)
	prev2 := start
	for i, c := range m.Phase2.Contributions {
		next := new(mpcsetup.Phase2)
		if err := readInto(dir, c, next); err != nil {
			return err
		}
		if err := prev2.Verify(next); err != nil {
			return fmt.Errorf("phase 2 contribution %d (%s, by %q): %w", i+1, c.File, c.Name, err)
		}
		report("phase 2 contribution %d by %q: sha256 %s: ok", i+1, c.Name, c.SHA256)
		prev2 = next
	}
	if !m.Phase2.finalized() {
		report("phase 2 is open: %d contributions so far", len(m.Phase2.Contributions))
		return open(dir, 2)
	}
	if beacon, err = hex.DecodeString(m.Phase2.Beacon); err != nil {
		return fmt.Errorf("phase 2 beacon: %w", err)
	}
	pk, vk := prev2.Seal(&commons, evals, beacon)
	derived, err := os.MkdirTemp("", "vaultd-ceremony-verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(derived)
	if err := zk.WriteKeysDir(derived, pk, vk); err != nil {
		return err
	}
	for _, name := range []string{zk.ProvingKeyFile, zk.VerifyingKeyFile, zk.VerificationKeyJSONFile, zk.VerifierArgsFile} {
		want, err := os.ReadFile(filepath.Join(derived, name))
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(dir, KeysDir, name))
		if err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("%s/%s is not what the transcript produces", KeysDir, name)
		}
	}
	report("phase 2 sealed with beacon %s: the keys in %s/ are the ones the transcript produces: ok", m.Phase2.Beacon, KeysDir)
	return nil
}

// ErrOpen is a transcript that verifies as far as it goes, with a phase still open: it has not
// produced keys.
var ErrOpen = errors.New("the ceremony is not finished")

// open is the answer for a transcript whose phase is open: ErrOpen, or a refusal of the keys
// found beside it.
func open(dir string, phase int) error {
	if entries, err := os.ReadDir(filepath.Join(dir, KeysDir)); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s/ holds keys but phase %d of the transcript beside it is open: those keys do not come from this transcript (a setup made elsewhere?); use them only with a finished transcript that produces them", KeysDir, phase)
	}
	return fmt.Errorf("%w: phase %d is open", ErrOpen, phase)
}

// sameAsFile checks that path holds exactly v's encoding.
func sameAsFile(path string, v io.WriterTo) error {
	var buf bytes.Buffer
	if _, err := v.WriteTo(&buf); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(data, buf.Bytes()) {
		return fmt.Errorf("%s is not what the transcript produces", path)
	}
	return nil
}
