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

// backend is where the registry keeps its entries and icons: a JSON file and an icon folder
// (one process, the default), or Postgres (replicas; pgstore.go).
type backend interface {
	// load reads every entry, with the chain id their tokenIds were computed with; found is
	// false for a store that holds nothing yet.
	load(ctx context.Context) (f storeFile, found bool, err error)
	// write runs change on the freshest entries under the store's write lock (cur is the
	// process's own view, which a single-process store trusts), persists the entry it returns,
	// and returns every entry after the change. Nothing is persisted when change fails.
	write(ctx context.Context, cur map[common.Address]storedToken, chainID uint64,
		change func(cur map[common.Address]storedToken) (storedToken, error)) (map[common.Address]storedToken, storedToken, error)
	// saveIcon stores an image for token under a content-addressed name and returns the name.
	saveIcon(ctx context.Context, token common.Address, data []byte) (string, error)
	// removeIcon deletes a stored icon (names of the stored form only).
	removeIcon(ctx context.Context, name string) error
	// icon opens a stored icon, with when it was stored.
	icon(ctx context.Context, name string) (io.ReadSeekCloser, time.Time, error)
	close()
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

func (b *fileBackend) write(_ context.Context, cur map[common.Address]storedToken, chainID uint64,
	change func(map[common.Address]storedToken) (storedToken, error)) (map[common.Address]storedToken, storedToken, error) {
	t, err := change(cur)
	if err != nil {
		return nil, t, err
	}
	next := maps.Clone(cur)
	next[common.HexToAddress(t.Address)] = t
	f := storeFile{Version: fileVersion, ChainID: chainID, Tokens: slices.Collect(maps.Values(next))}
	slices.SortFunc(f.Tokens, func(a, b storedToken) int {
		return strings.Compare(strings.ToLower(a.Address), strings.ToLower(b.Address))
	})
	if err := saveStore(b.path, f); err != nil {
		return nil, t, fmt.Errorf("write %s: %w", b.path, err)
	}
	return next, t, nil
}

func (b *fileBackend) saveIcon(_ context.Context, token common.Address, data []byte) (string, error) {
	return b.icons.Save(token, data)
}

func (b *fileBackend) removeIcon(_ context.Context, name string) error { return b.icons.Remove(name) }

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
