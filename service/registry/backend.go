package registry

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/kit/atomicfile"
)

// backend is where the registry keeps its entries, token list and icons: a JSON file and an icon
// folder (one process, the default), or Postgres (replicas; pgstore.go).
type backend interface {
	// load reads every entry, with the chain id their tokenIds were computed with, and the
	// stored token list; found is false for a store that holds no entry.
	load(ctx context.Context) (f storeFile, found bool, err error)
	// write runs apply on the freshest state under the store's write lock (cur is the
	// process's own view, which a single-process store trusts), persists the edit it returns,
	// and returns the state after it. Nothing is persisted when apply fails, nor when its edit
	// is empty. The edit's icons are stored and removed under the same lock, so that two writes
	// at once cannot remove an icon the other's entry names.
	write(ctx context.Context, cur contents, chainID uint64, apply func(cur contents) (edit, error)) (contents, edit, error)
	// icon opens a stored icon, with when it was stored.
	icon(ctx context.Context, name string) (io.ReadSeekCloser, time.Time, error)
	close()
}

// contents is what the store holds: the entries, the token list (nil before the first) and the
// relayer directory (nil before its first change).
type contents struct {
	byAddr    map[common.Address]storedToken
	list      *storedList
	directory *storedDirectory
}

// edit is one write: an entry put or removed, and the token list when it changed; or the relayer
// directory, when it changed.
type edit struct {
	put       *storedToken
	remove    *common.Address
	list      *storedList
	directory *storedDirectory
	icon      *newIcon // stored with the entry that names it
	dropIcon  string   // the icon an entry named before: removed with the change
}

func (e edit) empty() bool {
	return e.put == nil && e.remove == nil && e.list == nil && e.directory == nil
}

// applied is cur after e.
func (cur contents) applied(e edit) contents {
	next := contents{byAddr: maps.Clone(cur.byAddr), list: cur.list, directory: cur.directory}
	if next.byAddr == nil {
		next.byAddr = map[common.Address]storedToken{}
	}
	if e.put != nil {
		next.byAddr[common.HexToAddress(e.put.Address)] = *e.put
	}
	if e.remove != nil {
		delete(next.byAddr, *e.remove)
	}
	if e.list != nil {
		next.list = e.list
	}
	if e.directory != nil {
		next.directory = e.directory
	}
	return next
}

// contentsOf is what a loaded store holds.
func contentsOf(f storeFile) contents {
	byAddr := make(map[common.Address]storedToken, len(f.Tokens))
	for _, t := range f.Tokens {
		byAddr[common.HexToAddress(t.Address)] = t
	}
	return contents{byAddr: byAddr, list: f.TokenList, directory: f.Directory}
}

// fileBackend is DATA_FILE and ICONS_DIR: each write replaces the file atomically.
type fileBackend struct {
	path  string
	icons IconStore
}

func newFileBackend(path, iconsDir string) (*fileBackend, error) {
	if err := os.MkdirAll(iconsDir, 0o755); err != nil {
		return nil, fmt.Errorf("ICONS_DIR: %w", err)
	}
	atomicfile.RemoveTemps(filepath.Dir(path), filepath.Base(path))
	atomicfile.RemoveTemps(iconsDir, "*")
	return &fileBackend{path: path, icons: IconStore{Dir: iconsDir}}, nil
}

func (b *fileBackend) load(context.Context) (storeFile, bool, error) { return loadStore(b.path) }

func (b *fileBackend) write(_ context.Context, cur contents, chainID uint64, apply func(contents) (edit, error)) (contents, edit, error) {
	e, err := apply(cur)
	if err != nil || e.empty() {
		return cur, e, err
	}
	if e.icon != nil { // content-addressed: stored before the entry names it
		// Kept if the entry's write fails: the write may have failed after its file was
		// replaced (the folder's fsync), and an icon no entry names is served to no one.
		if err := b.icons.Save(e.icon); err != nil {
			return cur, e, err
		}
	}
	next := cur.applied(e)
	f := storeFile{Version: fileVersion, ChainID: chainID, Tokens: slices.Collect(maps.Values(next.byAddr)), TokenList: next.list, Directory: next.directory}
	slices.SortFunc(f.Tokens, func(a, b storedToken) int {
		return strings.Compare(strings.ToLower(a.Address), strings.ToLower(b.Address))
	})
	if f.Tokens == nil {
		f.Tokens = []storedToken{}
	}
	if err := saveStore(b.path, f); err != nil {
		return cur, e, fmt.Errorf("write %s: %w", b.path, err)
	}
	if e.dropIcon != "" {
		_ = b.icons.Remove(e.dropIcon) // named by no entry now: left behind, it is served to no one
	}
	return next, e, nil
}

func (b *fileBackend) icon(_ context.Context, name string) (io.ReadSeekCloser, time.Time, error) {
	f, err := os.Open(filepath.Join(b.icons.Dir, name))
	if err != nil {
		return nil, time.Time{}, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, time.Time{}, err
	}
	return f, st.ModTime(), nil
}

func (b *fileBackend) close() {}

// readSeekNopCloser is an icon held in memory.
type readSeekNopCloser struct{ *bytes.Reader }

func (readSeekNopCloser) Close() error { return nil }
