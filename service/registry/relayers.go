package registry

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/weburl"
)

// The relayer directory. GET /relayers.json lists the relayers the operator names for the
// deployment, for clients to choose among and fail over between. It is stored whole, as it is
// served, beside the tokens (the data file's `directory`, Postgres's registry_relayers), and
// versioned by the token list's rules (nextVersion) with an entry's name as its identity: a
// relayer added is minor, one removed major, a listed one's fields changed patch. Every replica
// therefore serves the same bytes with the same ETag, and a restart the same version.

// Error codes of the relayer directory.
const (
	CodeRelayerNotFound = "RELAYER_NOT_FOUND"
	CodeRelayerExists   = "RELAYER_EXISTS"
	CodeChainMismatch   = "CHAIN_MISMATCH"
)

// Relayer is a relayer as an operator lists it (its fields as sent: relayerEntry checks them) and
// as it is listed (normalized, its addresses EIP-55).
type Relayer struct {
	Name, URL                    string
	ChainID                      int64
	Vault, Operator, FeeReceiver string
}

// storedDirectory is the directory as stored, and as served: its JSON is the body of
// GET /relayers.json.
type storedDirectory struct {
	ChainID   uint64          `json:"chainId"`
	Version   listVersion     `json:"version"`
	Timestamp string          `json:"timestamp,omitempty"` // RFC 3339, UTC: when this version was made
	Relayers  []storedRelayer `json:"relayers"`            // by name
}

// storedRelayer is one listed relayer: its URL normalized (relayerURL), its addresses EIP-55.
type storedRelayer struct {
	Name        string `json:"name"`
	URL         string `json:"url"`
	ChainID     uint64 `json:"chainId"`
	Vault       string `json:"vault"`
	Operator    string `json:"operator"`
	FeeReceiver string `json:"feeReceiver"`
}

// relayerNamePattern is what a relayer's name may be: it is the path of its entry's routes.
var relayerNamePattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$`)

// emptyDirectory is the directory before its first change: nothing stored, so every replica and
// every restart serve the same bytes.
func emptyDirectory(chainID uint64) *storedDirectory {
	return &storedDirectory{ChainID: chainID, Version: listVersion{Major: 1}, Relayers: []storedRelayer{}}
}

// Directory returns the precomputed body of GET /relayers.json and its ETag.
func (r *Registry) Directory() (body []byte, etag string) {
	d := r.state.Load().directory
	return d.body, d.etag
}

// AddRelayer lists a relayer: RELAYER_EXISTS when its name or URL is listed already.
func (r *Registry) AddRelayer(ctx context.Context, in Relayer) (Relayer, error) {
	e, err := r.relayerEntry(in)
	if err != nil {
		return Relayer{}, err
	}
	err = r.editDirectory(ctx, func(entries []storedRelayer) ([]storedRelayer, error) {
		if slices.ContainsFunc(entries, func(o storedRelayer) bool { return o.Name == e.Name }) {
			return nil, refuse(RelayerExists, "a relayer is already listed as %s", e.Name)
		}
		if err := urlTaken(entries, e); err != nil {
			return nil, err
		}
		return append(entries, e), nil
	})
	if err != nil {
		return Relayer{}, err
	}
	return e.relayer(), nil
}

// UpdateRelayer replaces the fields of the relayer listed as in.Name.
func (r *Registry) UpdateRelayer(ctx context.Context, in Relayer) (Relayer, error) {
	e, err := r.relayerEntry(in)
	if err != nil {
		return Relayer{}, err
	}
	err = r.editDirectory(ctx, func(entries []storedRelayer) ([]storedRelayer, error) {
		i := slices.IndexFunc(entries, func(o storedRelayer) bool { return o.Name == e.Name })
		if i < 0 {
			return nil, errRelayerNotFound(e.Name)
		}
		if err := urlTaken(entries, e); err != nil {
			return nil, err
		}
		entries[i] = e
		return entries, nil
	})
	if err != nil {
		return Relayer{}, err
	}
	return e.relayer(), nil
}

// RemoveRelayer takes the relayer listed as name out of the directory.
func (r *Registry) RemoveRelayer(ctx context.Context, name string) error {
	return r.editDirectory(ctx, func(entries []storedRelayer) ([]storedRelayer, error) {
		i := slices.IndexFunc(entries, func(o storedRelayer) bool { return o.Name == name })
		if i < 0 {
			return nil, errRelayerNotFound(name)
		}
		return slices.Delete(entries, i, i+1), nil
	})
}

func errRelayerNotFound(name string) error {
	return refuse(RelayerNotFound, "no relayer is listed as %s", name)
}

// urlTaken refuses e when another entry is listed at its URL: one relayer listed twice would be
// chosen twice as often.
func urlTaken(entries []storedRelayer, e storedRelayer) error {
	for _, o := range entries {
		if o.URL == e.URL && o.Name != e.Name {
			return refuse(RelayerExists, "%s is already listed, as %s", e.URL, o.Name)
		}
	}
	return nil
}

// editDirectory applies change to a copy of the stored entries on the store's freshest state,
// stores the directory that results with its version bumped when anything changed (nothing is
// written when nothing did), and only then publishes it.
func (r *Registry) editDirectory(ctx context.Context, change func(entries []storedRelayer) ([]storedRelayer, error)) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.metrics.storeWrites.Inc()
	next, _, err := r.store.write(ctx, r.state.Load().contents, r.chainID, func(cur contents) (edit, error) {
		old := cur.directory
		if old == nil {
			old = emptyDirectory(r.chainID)
		}
		entries, err := change(slices.Clone(old.Relayers))
		if err != nil {
			return edit{}, err
		}
		d, changed := nextDirectory(old, entries, r.now())
		if !changed {
			return edit{}, nil
		}
		return edit{directory: d}, nil
	})
	if err != nil {
		var refused *TokenError
		if !errors.As(err, &refused) {
			r.metrics.storeWriteFailures.Inc()
		}
		return err
	}
	return r.publish(next)
}

// nextDirectory is old with entries (sorted by name here), its version bumped by nextVersion with
// names as identities; changed is false, and nothing is to be stored, when entries are old's.
func nextDirectory(old *storedDirectory, entries []storedRelayer, now time.Time) (next *storedDirectory, changed bool) {
	slices.SortFunc(entries, func(a, b storedRelayer) int { return strings.Compare(a.Name, b.Name) })
	names := func(es []storedRelayer) []string {
		n := make([]string, len(es))
		for i, e := range es {
			n[i] = e.Name
		}
		return n
	}
	v, changed := nextVersion(old.Version, names(old.Relayers), names(entries), func() bool { return slices.Equal(old.Relayers, entries) })
	if !changed {
		return old, false
	}
	return &storedDirectory{ChainID: old.ChainID, Version: v, Timestamp: now.UTC().Format(listTimestampShape), Relayers: entries}, true
}

// relayerEntry checks a relayer's fields and makes its entry: InvalidRelayer for a name, URL or
// address that is not one, ChainMismatch for another chain. The operator address is not
// checked on chain: it is the address the relayer's operator says it pays from (a relayer may
// pay from several keys, and a new key has no history to check); a client compares the
// directory's addresses with what the relayer itself answers.
func (r *Registry) relayerEntry(f Relayer) (storedRelayer, error) {
	if !relayerNamePattern.MatchString(f.Name) {
		return storedRelayer{}, refuse(InvalidRelayer, "name %q: 1 to 40 lowercase letters, digits and -, starting and ending with a letter or digit", f.Name)
	}
	u, err := relayerURL(f.URL)
	if err != nil {
		return storedRelayer{}, refuse(InvalidRelayer, "url %q: %v", f.URL, err)
	}
	e := storedRelayer{Name: f.Name, URL: u}
	for _, a := range []struct {
		field, value string
		to           *string
	}{{"vault", f.Vault, &e.Vault}, {"operator", f.Operator, &e.Operator}, {"feeReceiver", f.FeeReceiver, &e.FeeReceiver}} {
		addr, err := address.ParseNonZero(a.value)
		switch {
		case errors.Is(err, address.ErrZero):
			return storedRelayer{}, refuse(InvalidRelayer, "%s: the zero address", a.field)
		case err != nil:
			return storedRelayer{}, refuse(InvalidRelayer, "%s %q: %v", a.field, a.value, err)
		}
		*a.to = addr.Hex()
	}
	if f.ChainID < 1 || uint64(f.ChainID) != r.chainID {
		return storedRelayer{}, refuse(ChainMismatch, "chainId %d is not this registry's chain (%d)", f.ChainID, r.chainID)
	}
	e.ChainID = r.chainID
	return e, nil
}

// relayerURL checks a relayer's URL and returns it normalized: its scheme and host in lower case,
// no trailing "/", so that one relayer cannot be listed twice under two spellings. Clients are
// sent to it, so it must be secure (weburl.Secure: https, or http on a loopback host, a dev
// stack); it may carry a path (a relayer behind a prefix), not a user, query or fragment.
func relayerURL(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", errors.New("not a URL")
	}
	if err := weburl.Secure(u); err != nil {
		return "", err
	}
	switch {
	case u.User != nil:
		return "", errors.New("must not carry a user or password")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(s, "#"):
		return "", errors.New("must not carry a query or fragment")
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + strings.TrimRight(u.EscapedPath(), "/"), nil
}

// relayer is the entry as it is listed.
func (e storedRelayer) relayer() Relayer {
	return Relayer{Name: e.Name, URL: e.URL, ChainID: int64(e.ChainID), Vault: e.Vault, Operator: e.Operator, FeeReceiver: e.FeeReceiver}
}

// validate checks a stored directory (nil: none stored): its version, its chain (tokensChain,
// the tokens', when not 0), and that every entry is one relayerEntry makes, listed once by name
// and by URL, in name order.
func (d *storedDirectory) validate(tokensChain uint64) error {
	if d == nil {
		return nil
	}
	if d.ChainID == 0 || d.Version.Major < 1 || d.Version.Minor < 0 || d.Version.Patch < 0 || d.Relayers == nil {
		return errors.New("directory is not a stored relayer directory")
	}
	if tokensChain != 0 && d.ChainID != tokensChain {
		return fmt.Errorf("directory lists relayers of chain %d, its tokens are of chain %d", d.ChainID, tokensChain)
	}
	urls := map[string]bool{}
	for i, e := range d.Relayers {
		if !relayerNamePattern.MatchString(e.Name) || (i > 0 && d.Relayers[i-1].Name >= e.Name) {
			return fmt.Errorf("directory: relayer %d: name %q is not a name, or not in order", i, e.Name)
		}
		if u, err := relayerURL(e.URL); err != nil || u != e.URL || urls[u] {
			return fmt.Errorf("directory: relayer %s: url %q is not a listed relayer's URL", e.Name, e.URL)
		}
		urls[e.URL] = true
		if e.ChainID != d.ChainID {
			return fmt.Errorf("directory: relayer %s: chain %d, not the directory's %d", e.Name, e.ChainID, d.ChainID)
		}
		for _, a := range []string{e.Vault, e.Operator, e.FeeReceiver} {
			if !common.IsHexAddress(a) || common.HexToAddress(a).Hex() != a {
				return fmt.Errorf("directory: relayer %s: %q is not a checksummed address", e.Name, a)
			}
		}
	}
	return nil
}
