// Package registry is the token registry of seed 000: a directory of the vault's wrapped ERC20
// tokens whose name, symbol and decimals are read on-chain, with a Poseidon tokenId, admin
// metadata, icons on disk and a JSON file as its store.
//
// Reads are served from an immutable snapshot whose list bodies and ETags are computed once per
// change. Writes are serialised, persisted atomically before they are acknowledged, and leave
// memory and disk unchanged when they fail.
package registry

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/chain"
	"github.com/seed018cc74c/vaultd/service/platform"
	"github.com/seed018cc74c/vaultd/service/tokenid"
)

// Registry holds the tokens.
type Registry struct {
	chain    *chain.Client
	chainID  uint64
	dataFile string
	icons    IconStore
	iconMax  int64
	iconBase string // PUBLIC_BASE_URL + "/icons/"
	metrics  *metrics
	log      *slog.Logger

	mu    sync.Mutex // serialises writes
	state atomic.Pointer[snapshot]
}

// snapshot is one immutable version of the registry.
type snapshot struct {
	byAddr map[common.Address]storedToken
	public listBody // enabled tokens
	all    listBody // every token
}

// listBody is a precomputed GET /tokens answer.
type listBody struct {
	body []byte
	etag string
}

// Token renders an entry in the API's shape.
func (r *Registry) token(t storedToken) registryapi.Token {
	icon := t.IconURL
	if t.IconFile != "" {
		icon = r.iconBase + t.IconFile
	}
	return registryapi.Token{
		Address: t.Address, Name: t.Name, Symbol: t.Symbol, Decimals: int(t.Decimals), TokenId: t.TokenID,
		Icon: icon, Category: t.Category, Enabled: t.Enabled, SortOrder: t.SortOrder, UnderlyingChain: t.UnderlyingChain,
	}
}

// newSnapshot sorts the entries and precomputes both list bodies.
func (r *Registry) newSnapshot(byAddr map[common.Address]storedToken) (*snapshot, error) {
	sorted := make([]storedToken, 0, len(byAddr))
	for _, t := range byAddr {
		sorted = append(sorted, t)
	}
	slices.SortFunc(sorted, func(a, b storedToken) int {
		return cmp.Or(cmp.Compare(a.SortOrder, b.SortOrder),
			cmp.Compare(strings.ToLower(a.Symbol), strings.ToLower(b.Symbol)),
			cmp.Compare(a.Symbol, b.Symbol),
			cmp.Compare(strings.ToLower(a.Address), strings.ToLower(b.Address)))
	})
	public := registryapi.TokenList{Tokens: []registryapi.Token{}}
	all := registryapi.TokenList{Tokens: []registryapi.Token{}}
	for _, t := range sorted {
		api := r.token(t)
		all.Tokens = append(all.Tokens, api)
		if t.Enabled {
			public.Tokens = append(public.Tokens, api)
		}
	}
	s := &snapshot{byAddr: byAddr}
	var err error
	if s.public, err = encodeList(public); err != nil {
		return nil, err
	}
	if s.all, err = encodeList(all); err != nil {
		return nil, err
	}
	return s, nil
}

func encodeList(l registryapi.TokenList) (listBody, error) {
	body, err := json.Marshal(l)
	if err != nil {
		return listBody{}, err
	}
	body = append(body, '\n')
	sum := sha256.Sum256(body)
	return listBody{body: body, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}, nil
}

// install makes the entries of a loaded data file the registry's state.
func (r *Registry) install(f storeFile) error {
	byAddr := make(map[common.Address]storedToken, len(f.Tokens))
	for _, t := range f.Tokens {
		byAddr[common.HexToAddress(t.Address)] = t
	}
	snap, err := r.newSnapshot(byAddr)
	if err != nil {
		return err
	}
	r.state.Store(snap)
	r.metrics.tokens.Set(float64(len(byAddr)))
	return nil
}

// Count is the number of registered tokens, enabled or not.
func (r *Registry) Count() int { return len(r.state.Load().byAddr) }

// Get returns the entry at addr, enabled or not.
func (r *Registry) Get(addr common.Address) (registryapi.Token, bool) {
	t, ok := r.state.Load().byAddr[addr]
	if !ok {
		return registryapi.Token{}, false
	}
	return r.token(t), true
}

// List returns the precomputed list body: enabled tokens, or all with includeDisabled.
func (r *Registry) List(includeDisabled bool) (body []byte, etag string) {
	s := r.state.Load()
	if includeDisabled {
		return s.all.body, s.all.etag
	}
	return s.public.body, s.public.etag
}

// Upsert adds or updates the token in `in`. It reads the metadata from the chain first, stores a
// base64 icon if one came, persists, and only then makes the change visible. It returns the
// entry and whether it was created.
func (r *Registry) Upsert(ctx context.Context, in registryapi.TokenInput) (registryapi.Token, bool, error) {
	addr, err := parseAddress(in.Address)
	if err != nil {
		return registryapi.Token{}, false, err
	}
	var icon *IconField
	if in.Icon != nil {
		f, err := ParseIconField(*in.Icon, r.iconMax)
		if err != nil {
			return registryapi.Token{}, false, err
		}
		icon = &f
	}
	md, err := ReadMetadata(ctx, r.chain, addr)
	if err != nil {
		return registryapi.Token{}, false, err
	}
	id, err := tokenid.Hex(addr, r.chainID)
	if err != nil {
		return registryapi.Token{}, false, platform.Internal(err)
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	old, exists := r.state.Load().byAddr[addr]
	t := old
	if !exists {
		t = storedToken{Address: addr.Hex(), Enabled: true}
	}
	t.Name, t.Symbol, t.Decimals, t.TokenID = md.Name, md.Symbol, md.Decimals, id
	if in.Category != nil {
		t.Category = strings.TrimSpace(*in.Category)
	}
	if in.Enabled != nil {
		t.Enabled = *in.Enabled
	}
	if in.SortOrder != nil {
		t.SortOrder = *in.SortOrder
	}
	if in.UnderlyingChain != nil {
		t.UnderlyingChain = strings.TrimSpace(*in.UnderlyingChain)
	}
	if icon != nil {
		t.IconURL, t.IconFile = icon.URL, ""
		if icon.Data != nil {
			if t.IconFile, err = r.icons.Save(addr, icon.Data); err != nil {
				return registryapi.Token{}, false, platform.Internal(err)
			}
		}
	}
	if err := r.commit(t, old.IconFile); err != nil {
		return registryapi.Token{}, false, err
	}
	return r.token(t), !exists, nil
}

// SetIcon stores an uploaded icon for a registered token and returns its URL.
func (r *Registry) SetIcon(addr common.Address, data []byte) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	old, ok := r.state.Load().byAddr[addr]
	if !ok {
		return "", errTokenNotFound(addr)
	}
	file, err := r.icons.Save(addr, data)
	if err != nil {
		return "", platform.Internal(err)
	}
	t := old
	t.IconURL, t.IconFile = "", file
	if err := r.commit(t, old.IconFile); err != nil {
		return "", err
	}
	return r.iconBase + file, nil
}

func errTokenNotFound(addr common.Address) error {
	return refuse(TokenNotFound, "token %s is not registered", addr.Hex())
}

// commit makes t part of the registry: build the next snapshot, persist it, publish it. On
// failure nothing changes and a newly stored icon file is removed; on success the entry's
// previous icon file (oldIcon) is removed if it is no longer used. Callers hold r.mu.
func (r *Registry) commit(t storedToken, oldIcon string) error {
	cur := r.state.Load()
	next := make(map[common.Address]storedToken, len(cur.byAddr)+1)
	for k, v := range cur.byAddr {
		next[k] = v
	}
	next[common.HexToAddress(t.Address)] = t
	discard := func(file string) {
		if file != "" && file != oldIcon {
			if err := r.icons.Remove(file); err != nil {
				r.log.Warn("could not remove icon file", "file", file, "err", err)
			}
		}
	}
	snap, err := r.newSnapshot(next)
	if err != nil {
		discard(t.IconFile)
		return platform.Internal(err)
	}
	if err := r.persist(next); err != nil {
		discard(t.IconFile)
		return platform.Internal(err)
	}
	r.state.Store(snap)
	r.metrics.tokens.Set(float64(len(next)))
	if oldIcon != "" && oldIcon != t.IconFile {
		if err := r.icons.Remove(oldIcon); err != nil {
			r.log.Warn("could not remove replaced icon file", "file", oldIcon, "err", err)
		}
	}
	return nil
}

func (r *Registry) persist(byAddr map[common.Address]storedToken) error {
	f := storeFile{Version: fileVersion, ChainID: r.chainID, Tokens: make([]storedToken, 0, len(byAddr))}
	for _, t := range byAddr {
		f.Tokens = append(f.Tokens, t)
	}
	slices.SortFunc(f.Tokens, func(a, b storedToken) int {
		return strings.Compare(strings.ToLower(a.Address), strings.ToLower(b.Address))
	})
	r.metrics.storeWrites.Inc()
	if err := saveStore(r.dataFile, f); err != nil {
		r.metrics.storeWriteFailures.Inc()
		return fmt.Errorf("write %s: %w", r.dataFile, err)
	}
	return nil
}
