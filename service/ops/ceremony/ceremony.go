// Package ceremony runs the multi-party Groth16 setup of the reveal circuit with gnark's
// mpcsetup, so that no single party ever holds the randomness that could forge reveals. It has
// two phases: phase 1, the powers of tau (circuit-independent), and phase 2, specific to the
// circuit. Each phase is a chain of contributions, each made by one participant from fresh
// randomness that is discarded, and is closed by a public random beacon chosen after its last
// contribution. If one participant of each phase destroyed their randomness, nobody can forge a
// proof with the keys.
//
// Everything lives in a transcript directory that anyone can check with Verify:
//
//	ceremony.json        the circuit, its domain, and each phase's contributions and beacon
//	phase1/0001.bin …    phase-1 contributions, in order
//	phase1/commons.bin   phase 1 sealed with its beacon
//	phase2/0000.bin      phase 2's starting point, derived from commons.bin and the circuit
//	phase2/evaluations.gob  a cache for finalize (not part of the transcript)
//	phase2/0001.bin …    phase-2 contributions, in order
//	keys/                the result (zk.WriteKeysDir): reveal.pk, reveal.vk,
//	                     verification_key.json, verifier-args.json
package ceremony

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/backend/groth16/bn254/mpcsetup"
	cs "github.com/consensys/gnark/constraint/bn254"

	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// ManifestFile is the transcript's index, in the ceremony directory.
const ManifestFile = "ceremony.json"

// KeysDir is where Finalize writes the keys, in the ceremony directory.
const KeysDir = "keys"

// Manifest is ceremony.json.
type Manifest struct {
	Circuit     string `json:"circuit"`     // "reveal"
	CircuitHash string `json:"circuitHash"` // sha256 of the compiled constraint system
	Constraints int    `json:"constraints"`
	DomainSize  uint64 `json:"domainSize"`
	Phase1      Phase  `json:"phase1"`
	Phase2      *Phase `json:"phase2,omitempty"` // opened when phase 1 is finalized
}

// Phase is one phase's contributions, and the beacon that closed it.
type Phase struct {
	Contributions []Contribution `json:"contributions"`
	Beacon        string         `json:"beacon,omitempty"` // hex; set by Finalize
}

// Contribution is one participant's step.
type Contribution struct {
	File   string `json:"file"`   // relative to the ceremony directory
	Name   string `json:"name"`   // who contributed, as they said
	SHA256 string `json:"sha256"` // of File: what the participant publishes, to be checked against
}

func (p *Phase) finalized() bool { return p != nil && p.Beacon != "" }

// circuit returns the reveal circuit's constraint system and its hash, compiled once per
// process (a second or more each time; the steps only read it). A variable so that the
// package's tests can run the steps whose checks do not depend on the circuit on a small one
// (export_test.go): a phase 1 for the reveal circuit's domain takes seconds a step.
var circuit = func() (*cs.R1CS, string, error) {
	compiled.once.Do(func() { compiled.ccs, compiled.hash, compiled.err = compile() })
	return compiled.ccs, compiled.hash, compiled.err
}

var compiled struct {
	once sync.Once
	ccs  *cs.R1CS
	hash string
	err  error
}

// compile compiles the reveal circuit and hashes its constraint system.
func compile() (*cs.R1CS, string, error) {
	ccs, err := zk.Compile()
	if err != nil {
		return nil, "", err
	}
	h := sha256.New()
	if _, err := ccs.WriteTo(h); err != nil {
		return nil, "", err
	}
	return ccs.(*cs.R1CS), hex.EncodeToString(h.Sum(nil)), nil
}

// Init starts a ceremony for the reveal circuit in dir (created if needed, and empty of any
// other ceremony).
func Init(dir string) (*Manifest, error) {
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		return nil, fmt.Errorf("%s already holds a ceremony", dir)
	}
	ccs, hash, err := circuit()
	if err != nil {
		return nil, err
	}
	m := &Manifest{Circuit: "reveal", CircuitHash: hash, Constraints: ccs.GetNbConstraints(),
		DomainSize: ecc.NextPowerOfTwo(uint64(ccs.GetNbConstraints())), Phase1: Phase{Contributions: []Contribution{}}}
	for _, d := range []string{dir, filepath.Join(dir, "phase1")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	return m, writeManifest(dir, m)
}

// ReadManifest reads dir's ceremony.json.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("not a ceremony directory (run init first): %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", ManifestFile, err)
	}
	return &m, nil
}

// writeManifest replaces ceremony.json atomically: a crash leaves the old one or the new one.
func writeManifest(dir string, m *Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, ManifestFile), append(data, '\n'))
}

// writeFile writes data to path through a temporary file and a rename.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// open returns the phase taking contributions: 1 or 2, or an error once both are finalized.
func (m *Manifest) open() (int, *Phase, error) {
	switch {
	case !m.Phase1.finalized():
		return 1, &m.Phase1, nil
	case m.Phase2 != nil && !m.Phase2.finalized():
		return 2, m.Phase2, nil
	}
	return 0, nil, errors.New("the ceremony is finished: both phases are finalized")
}

// Contribute adds name's contribution to the open phase, from fresh randomness that is never
// stored, and returns it (its SHA256 is what the participant publishes). It first checks the
// latest contribution against the one before it, so nobody builds on a broken step unknowingly;
// Verify checks the whole transcript.
func Contribute(dir, name string) (Contribution, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return Contribution{}, err
	}
	n, phase, err := m.open()
	if err != nil {
		return Contribution{}, err
	}
	var next io.WriterTo
	switch n {
	case 1:
		p, err := latestPhase1(dir, m)
		if err != nil {
			return Contribution{}, err
		}
		p.Contribute()
		next = p
	case 2:
		p, err := latestPhase2(dir, m)
		if err != nil {
			return Contribution{}, err
		}
		p.Contribute()
		next = p
	}
	var buf bytes.Buffer
	if _, err := next.WriteTo(&buf); err != nil {
		return Contribution{}, err
	}
	c := Contribution{File: filepath.Join(fmt.Sprintf("phase%d", n), fmt.Sprintf("%04d.bin", len(phase.Contributions)+1)), Name: name, SHA256: sum(buf.Bytes())}
	if err := writeFile(filepath.Join(dir, c.File), buf.Bytes()); err != nil {
		return Contribution{}, err
	}
	phase.Contributions = append(phase.Contributions, c)
	return c, writeManifest(dir, m)
}

// latestPhase1 reads the newest phase-1 contribution (the initial state when there is none),
// checked against the one before it.
func latestPhase1(dir string, m *Manifest) (*mpcsetup.Phase1, error) {
	cs := m.Phase1.Contributions
	prev := mpcsetup.NewPhase1(m.DomainSize)
	if len(cs) == 0 {
		return prev, nil
	}
	if len(cs) > 1 {
		if err := readInto(dir, cs[len(cs)-2], prev); err != nil {
			return nil, err
		}
	}
	last := new(mpcsetup.Phase1)
	if err := readInto(dir, cs[len(cs)-1], last); err != nil {
		return nil, err
	}
	if err := prev.Verify(last); err != nil {
		return nil, fmt.Errorf("%s does not follow from the contribution before it: %w", cs[len(cs)-1].File, err)
	}
	return last, nil
}

// latestPhase2 reads the newest phase-2 contribution (phase2/0000.bin when there is none),
// checked against the one before it.
func latestPhase2(dir string, m *Manifest) (*mpcsetup.Phase2, error) {
	cs := m.Phase2.Contributions
	prev := new(mpcsetup.Phase2)
	if err := readFile(filepath.Join(dir, phase2Start), prev); err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return prev, nil
	}
	if len(cs) > 1 {
		prev = new(mpcsetup.Phase2)
		if err := readInto(dir, cs[len(cs)-2], prev); err != nil {
			return nil, err
		}
	}
	last := new(mpcsetup.Phase2)
	if err := readInto(dir, cs[len(cs)-1], last); err != nil {
		return nil, err
	}
	if err := prev.Verify(last); err != nil {
		return nil, fmt.Errorf("%s does not follow from the contribution before it: %w", cs[len(cs)-1].File, err)
	}
	return last, nil
}

const (
	phase1Sealed = "phase1/commons.bin"
	phase2Start  = "phase2/0000.bin"
	// phase2Evaluations caches what Finalize computed with phase2Start (not part of the transcript).
	phase2Evaluations = "phase2/evaluations.gob"
)

// Finalize closes the open phase with beacon, a public random value fixed only after the
// phase's last contribution (a drand round or a block hash announced in advance). Closing
// phase 1 verifies its contributions, seals them and opens phase 2; closing phase 2 verifies
// its contributions and writes the keys to dir/keys.
func Finalize(dir string, beacon []byte) error {
	if len(beacon) == 0 {
		return errors.New("the beacon is empty")
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return err
	}
	n, phase, err := m.open()
	if err != nil {
		return err
	}
	if len(phase.Contributions) == 0 {
		return fmt.Errorf("phase %d has no contribution yet: a phase closed without one would be as weak as a single-party setup", n)
	}
	ccs, hash, err := circuit()
	if err != nil {
		return err
	}
	if hash != m.CircuitHash {
		return errors.New("the reveal circuit changed since this ceremony began: its keys would not fit; start a new ceremony")
	}
	switch n {
	case 1:
		commons, err := sealPhase1(dir, m, beacon)
		if err != nil {
			return err
		}
		start, evals, err := startPhase2(hash, ccs, &commons)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, "phase2"), 0o755); err != nil {
			return err
		}
		if err := writeEvaluations(filepath.Join(dir, phase2Evaluations), evals); err != nil {
			return err
		}
		if err := writeTo(filepath.Join(dir, phase1Sealed), &commons); err != nil {
			return err
		}
		if err := writeTo(filepath.Join(dir, phase2Start), start); err != nil {
			return err
		}
		m.Phase1.Beacon = hex.EncodeToString(beacon)
		m.Phase2 = &Phase{Contributions: []Contribution{}}
	case 2:
		var commons mpcsetup.SrsCommons
		if err := readFile(filepath.Join(dir, phase1Sealed), &commons); err != nil {
			return err
		}
		pk, vk, err := sealPhase2(dir, m, hash, ccs, &commons, beacon)
		if err != nil {
			return err
		}
		if err := zk.WriteKeysDir(filepath.Join(dir, KeysDir), pk, vk); err != nil {
			return err
		}
		m.Phase2.Beacon = hex.EncodeToString(beacon)
	}
	return writeManifest(dir, m)
}

// sealPhase1 verifies every phase-1 contribution from the initial state and seals the last
// with beacon.
func sealPhase1(dir string, m *Manifest, beacon []byte) (mpcsetup.SrsCommons, error) {
	contributions := make([]*mpcsetup.Phase1, len(m.Phase1.Contributions))
	for i, c := range m.Phase1.Contributions {
		contributions[i] = new(mpcsetup.Phase1)
		if err := readInto(dir, c, contributions[i]); err != nil {
			return mpcsetup.SrsCommons{}, err
		}
	}
	commons, err := mpcsetup.VerifyPhase1(m.DomainSize, beacon, contributions...)
	if err != nil {
		return mpcsetup.SrsCommons{}, fmt.Errorf("phase 1: %w", err)
	}
	return commons, nil
}

// sealPhase2 verifies every phase-2 contribution from phase2/0000.bin and seals the last with
// beacon into the keys. The circuit's evaluations come from the cache Finalize wrote with
// 0000.bin (computing them takes half a minute); without it they are computed again.
func sealPhase2(dir string, m *Manifest, hash string, ccs *cs.R1CS, commons *mpcsetup.SrsCommons, beacon []byte) (groth16.ProvingKey, groth16.VerifyingKey, error) {
	prev := new(mpcsetup.Phase2)
	if err := readFile(filepath.Join(dir, phase2Start), prev); err != nil {
		return nil, nil, err
	}
	evals, err := readEvaluations(filepath.Join(dir, phase2Evaluations))
	if err != nil {
		if _, evals, err = startPhase2(hash, ccs, commons); err != nil {
			return nil, nil, err
		}
	}
	for i, c := range m.Phase2.Contributions {
		next := new(mpcsetup.Phase2)
		if err := readInto(dir, c, next); err != nil {
			return nil, nil, err
		}
		if err := prev.Verify(next); err != nil {
			return nil, nil, fmt.Errorf("phase 2 contribution %d (%s): %w", i+1, c.File, err)
		}
		prev = next
	}
	pk, vk := prev.Seal(commons, evals, beacon)
	return pk, vk, nil
}

// startPhase2 returns phase 2's starting point for the circuit (ccs, whose hash is hash) and
// phase 1's commons, with the circuit's evaluations that sealing phase 2 needs: gnark's
// Initialize (computed by initialize, on every core), which involves no randomness.
// The last one computed is kept for the process, by the hash of the circuit and of the commons'
// encoding, so that a process that finalizes phase 1 and then verifies the transcript (as the
// coordinator does, and the tests) computes it once; each caller gets its own copy, since
// sealing modifies it.
func startPhase2(hash string, ccs *cs.R1CS, commons *mpcsetup.SrsCommons) (*mpcsetup.Phase2, *mpcsetup.Phase2Evaluations, error) {
	h := sha256.New()
	h.Write([]byte(hash))
	if _, err := commons.WriteTo(h); err != nil {
		return nil, nil, err
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])

	started.Lock()
	defer started.Unlock()
	if started.key != key {
		var start mpcsetup.Phase2
		evals := initialize(&start, ccs, commons)
		var p, e bytes.Buffer
		if _, err := start.WriteTo(&p); err != nil {
			return nil, nil, err
		}
		if err := gob.NewEncoder(&e).Encode(&evals); err != nil {
			return nil, nil, err
		}
		started.key, started.phase, started.evals = key, p.Bytes(), e.Bytes()
	}
	start, evals := new(mpcsetup.Phase2), new(mpcsetup.Phase2Evaluations)
	if err := decode(phase2Start, started.phase, start); err != nil {
		return nil, nil, err
	}
	if err := gob.NewDecoder(bytes.NewReader(started.evals)).Decode(evals); err != nil {
		return nil, nil, err
	}
	return start, evals, nil
}

// started is the last phase-2 starting point startPhase2 computed, encoded.
var started struct {
	sync.Mutex
	key          [sha256.Size]byte
	phase, evals []byte
}

// writeEvaluations caches phase 2's circuit evaluations. The cache is not part of the
// transcript: Verify computes them itself.
func writeEvaluations(path string, evals *mpcsetup.Phase2Evaluations) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(evals); err != nil {
		return err
	}
	return writeFile(path, buf.Bytes())
}

func readEvaluations(path string) (*mpcsetup.Phase2Evaluations, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	evals := new(mpcsetup.Phase2Evaluations)
	return evals, gob.NewDecoder(f).Decode(evals)
}

// readInto reads contribution c into v after checking the file is the one the manifest names.
func readInto(dir string, c Contribution, v io.ReaderFrom) error {
	data, err := os.ReadFile(filepath.Join(dir, c.File))
	if err != nil {
		return err
	}
	if got := sum(data); got != c.SHA256 {
		return fmt.Errorf("%s: sha256 %s, but %s records %s", c.File, got, ManifestFile, c.SHA256)
	}
	return decode(c.File, data, v)
}

func readFile(path string, v io.ReaderFrom) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return decode(path, data, v)
}

func decode(name string, data []byte, v io.ReaderFrom) error {
	n, err := v.ReadFrom(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if int(n) != len(data) {
		return fmt.Errorf("%s: %d bytes after the contribution", name, len(data)-int(n))
	}
	return nil
}

func writeTo(path string, v io.WriterTo) error {
	var buf bytes.Buffer
	if _, err := v.WriteTo(&buf); err != nil {
		return err
	}
	return writeFile(path, buf.Bytes())
}

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}
