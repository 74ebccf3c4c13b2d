// Package registry is the token registry: a directory of the vault's wrapped ERC20
// tokens whose name, symbol and decimals are read on-chain, with a Poseidon tokenId, admin
// metadata, icons, the directory of the deployment's relayers (relayers.go), and as its store a JSON file and an icon folder (one process) or Postgres
// (replicas that follow each other's writes; pgstore.go).
//
// Reads are served from an immutable snapshot whose list bodies and ETags are computed once per
// change. Writes are serialised, persisted atomically before they are acknowledged, and leave
// memory and the store unchanged when they fail.
package registry

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.opentelemetry.io/otel/trace"

	"github.com/seed018cc74c/vaultd/service/kit/chain"
	"github.com/seed018cc74c/vaultd/service/kit/tracing"
	"github.com/seed018cc74c/vaultd/service/vault/tokenid"
)

// Registry holds the tokens.
type Registry struct {
	chain    *chain.Client
	chainID  uint64
	store    backend
	iconMax  int64
	iconBase string // PUBLIC_BASE_URL + "/icons/"
	listName string // the token list's name (TOKENLIST_NAME)
	now      func() time.Time
	metrics  *metrics
	log      *slog.Logger
	tracer   trace.Tracer // a write's steps: the token's metadata read, the store's write

	mu    sync.Mutex // serialises writes
	state atomic.Pointer[snapshot]
}

// snapshot is one immutable version of the registry.
type snapshot struct {
	contents
	public    listBody // enabled tokens
	all       listBody // every token
	tokenList listBody // GET /tokenlist.json; no body while the list holds no token
	directory listBody // GET /relayers.json
}

// listBody is a precomputed GET /tokens answer.
type listBody struct {
	body []byte
	etag string
}

// Token is an entry as it is shown: what GET /tokens/{address} answers and GET /tokens lists (its
// JSON is the lists' precomputed entries, in the document's Token shape and field order).
type Token struct {
	Address         string `json:"address"` // EIP-55
	Category        string `json:"category"`
	Decimals        int    `json:"decimals"`
	Enabled         bool   `json:"enabled"`
	Icon            string `json:"icon"` // its URL; "" for none
	Name            string `json:"name"`
	SortOrder       int32  `json:"sortOrder"`
	Symbol          string `json:"symbol"`
	TokenID         string `json:"tokenId"`
	UnderlyingChain string `json:"underlyingChain"`
}

// tokenList is the body of GET /tokens.
type tokenList struct {
	Tokens []Token `json:"tokens"`
}

// TokenInput is what an operator says of a token it adds or updates: its address, and the fields
// it sets (nil: kept; on a new entry, the default).
type TokenInput struct {
	Address         common.Address
	Icon            *string // ParseIconField's forms
	Category        *string
	Enabled         *bool
	SortOrder       *int32
	UnderlyingChain *string
}

// token is an entry as it is shown.
func (r *Registry) token(t storedToken) Token {
	icon := t.IconURL
	if t.IconFile != "" {
		icon = r.iconBase + t.IconFile
	}
	return Token{
		Address: t.Address, Name: t.Name, Symbol: t.Symbol, Decimals: int(t.Decimals), TokenID: t.TokenID,
		Icon: icon, Category: t.Category, Enabled: t.Enabled, SortOrder: t.SortOrder, UnderlyingChain: t.UnderlyingChain,
	}
}

// compareTokens is the order of the lists: sortOrder, symbol, address.
func compareTokens(a, b storedToken) int {
	return cmp.Or(cmp.Compare(a.SortOrder, b.SortOrder),
		cmp.Compare(strings.ToLower(a.Symbol), strings.ToLower(b.Symbol)),
		cmp.Compare(a.Symbol, b.Symbol),
		cmp.Compare(strings.ToLower(a.Address), strings.ToLower(b.Address)))
}

// newSnapshot sorts the entries and precomputes the list bodies.
func (r *Registry) newSnapshot(st contents) (*snapshot, error) {
	sorted := make([]storedToken, 0, len(st.byAddr))
	for _, t := range st.byAddr {
		sorted = append(sorted, t)
	}
	slices.SortFunc(sorted, compareTokens)
	public := tokenList{Tokens: []Token{}}
	all := tokenList{Tokens: []Token{}}
	for _, t := range sorted {
		api := r.token(t)
		all.Tokens = append(all.Tokens, api)
		if t.Enabled {
			public.Tokens = append(public.Tokens, api)
		}
	}
	s := &snapshot{contents: st}
	var err error
	if s.public, err = encodeList(public); err != nil {
		return nil, err
	}
	if s.all, err = encodeList(all); err != nil {
		return nil, err
	}
	if st.list != nil && len(st.list.Tokens) > 0 {
		if s.tokenList, err = encodeList(st.list); err != nil {
			return nil, err
		}
	}
	directory := st.directory
	if directory == nil {
		directory = emptyDirectory(r.chainID)
	}
	if s.directory, err = encodeList(directory); err != nil {
		return nil, err
	}
	return s, nil
}

func encodeList(l any) (listBody, error) {
	body, err := json.Marshal(l)
	if err != nil {
		return listBody{}, err
	}
	body = append(body, '\n')
	sum := sha256.Sum256(body)
	return listBody{body: body, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}, nil
}

// install makes the entries of a loaded store the registry's state.
func (r *Registry) install(f storeFile) error { return r.publish(contentsOf(f)) }

// publish makes st the registry's state.
func (r *Registry) publish(st contents) error {
	snap, err := r.newSnapshot(st)
	if err != nil {
		return err
	}
	r.state.Store(snap)
	r.metrics.tokens.Set(float64(len(st.byAddr)))
	relayers := 0
	if st.directory != nil {
		relayers = len(st.directory.Relayers)
	}
	r.metrics.relayers.Set(float64(relayers))
	return nil
}

// reload reads the store again and publishes what it holds (another replica wrote to it).
func (r *Registry) reload(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.metrics.storeReloads.Inc()
	f, _, err := r.store.load(ctx)
	if err != nil {
		return err
	}
	if id, pinned := f.chain(); pinned && id != r.chainID {
		return fmt.Errorf("the store now holds tokenIds or relayers for chain %d, not %d", id, r.chainID)
	}
	return r.install(f)
}

// Count is the number of registered tokens, enabled or not.
func (r *Registry) Count() int { return len(r.state.Load().byAddr) }

// Get returns the entry at addr, enabled or not.
func (r *Registry) Get(addr common.Address) (Token, bool) {
	t, ok := r.state.Load().byAddr[addr]
	if !ok {
		return Token{}, false
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

// TokenList returns the precomputed body of GET /tokenlist.json; ok is false while the list
// holds no token (the format needs one).
func (r *Registry) TokenList() (body []byte, etag string, ok bool) {
	l := r.state.Load().tokenList
	return l.body, l.etag, l.body != nil
}

// Upsert adds or updates the token in `in`. It reads the metadata from the chain first, stores a
// base64 icon if one came, persists, and only then makes the change visible. It returns the
// entry and whether it was created.
func (r *Registry) Upsert(ctx context.Context, in TokenInput) (Token, bool, error) {
	addr := in.Address
	var icon *IconField
	if in.Icon != nil {
		f, err := ParseIconField(*in.Icon, r.iconMax)
		if err != nil {
			return Token{}, false, err
		}
		icon = &f
	}
	mctx, span := r.tracer.Start(ctx, "metadata") // the token's name, symbol and decimals, from the chain
	md, err := readMetadata(mctx, r.chain, addr)
	tracing.EndStep(span, err, named)
	if err != nil {
		return Token{}, false, err
	}
	id, err := tokenid.Hex(addr, r.chainID)
	if err != nil {
		return Token{}, false, err
	}

	ctx, span = r.tracer.Start(ctx, "store") // the icon, then the entry
	defer func() { tracing.EndStep(span, err, named) }()
	var stored *newIcon
	var iconFile string
	if icon != nil && icon.Data != nil {
		if stored, err = iconOf(addr, icon.Data); err != nil {
			return Token{}, false, err
		}
		iconFile = stored.name
	}
	var exists bool
	t, err := r.update(ctx, stored, addr, func(old storedToken, found bool) (*storedToken, error) {
		exists = found
		t := old
		if !found {
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
			t.IconURL, t.IconFile = icon.URL, iconFile
		}
		return &t, nil
	})
	if err != nil {
		return Token{}, false, err
	}
	return r.token(t), !exists, nil
}

// SetIcon stores an uploaded icon for a registered token and returns its URL.
func (r *Registry) SetIcon(ctx context.Context, addr common.Address, data []byte) (string, error) {
	if _, ok := r.state.Load().byAddr[addr]; !ok { // before storing anything (checked again under the lock)
		return "", errTokenNotFound(addr)
	}
	icon, err := iconOf(addr, data)
	if err != nil {
		return "", err
	}
	_, err = r.update(ctx, icon, addr, func(old storedToken, found bool) (*storedToken, error) {
		if !found {
			return nil, errTokenNotFound(addr)
		}
		t := old
		t.IconURL, t.IconFile = "", icon.name
		return &t, nil
	})
	if err != nil {
		return "", err
	}
	return r.iconBase + icon.name, nil
}

func errTokenNotFound(addr common.Address) error {
	return refuse(TokenNotFound, "token %s is not registered", addr.Hex())
}

// Remove deletes the entry at addr, and its stored icon.
func (r *Registry) Remove(ctx context.Context, addr common.Address) error {
	_, err := r.update(ctx, nil, addr, func(old storedToken, found bool) (*storedToken, error) {
		if !found {
			return nil, errTokenNotFound(addr)
		}
		return nil, nil
	})
	return err
}

// update applies change to the entry at addr (found false when there is none; a nil result
// removes it) on the store's freshest state, renders the token list of the result and bumps its
// version when it changed, persists both, and only then publishes them. icon, when set, is
// stored with the change; the entry's previous icon is removed with it once no longer named.
func (r *Registry) update(ctx context.Context, icon *newIcon, addr common.Address, change func(old storedToken, found bool) (*storedToken, error)) (storedToken, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.metrics.storeWrites.Inc()
	next, e, err := r.store.write(ctx, r.state.Load().contents, r.chainID, func(cur contents) (edit, error) {
		old, found := cur.byAddr[addr]
		t, err := change(old, found)
		if err != nil {
			return edit{}, err
		}
		e := edit{put: t, icon: icon}
		if t == nil {
			e.remove = &addr
		}
		if old.IconFile != "" && (t == nil || t.IconFile != old.IconFile) {
			e.dropIcon = old.IconFile
		}
		e.list = r.listAfter(cur.applied(e))
		return e, nil
	})
	var t storedToken
	if e.put != nil {
		t = *e.put
	}
	if err != nil {
		var refused *TokenError
		if !errors.As(err, &refused) {
			r.metrics.storeWriteFailures.Inc()
		}
		return t, err
	}
	if err := r.publish(next); err != nil {
		return t, err
	}
	return t, nil
}

// listAfter is the token list to store with st: nil when the stored one stands.
func (r *Registry) listAfter(st contents) *storedList {
	l, changed := nextList(st.list, renderList(r.listName, r.chainID, r.iconBase, st.byAddr), r.now())
	if !changed {
		return nil
	}
	return l
}

// settleList stores the token list of the store's entries when it is not the stored one: at
// start, the first time (a store written before the list existed), or after a setting it
// depends on changed (PUBLIC_BASE_URL, TOKENLIST_NAME). It writes nothing otherwise.
func (r *Registry) settleList(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	next, e, err := r.store.write(ctx, r.state.Load().contents, r.chainID, func(cur contents) (edit, error) {
		return edit{list: r.listAfter(cur)}, nil
	})
	if err != nil {
		return fmt.Errorf("store the token list: %w", err)
	}
	if e.empty() {
		return nil
	}
	return r.publish(next)
}
