package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/vault/tokenid"

	"github.com/seed018cc74c/vaultd/service/kit/atomicfile"
)

// fileVersion is the layout version of DATA_FILE.
const fileVersion = 1

// storeFile is the layout of DATA_FILE.
type storeFile struct {
	Version int           `json:"version"`
	ChainID uint64        `json:"chainId"` // the chain id the tokenIds were computed with
	Tokens  []storedToken `json:"tokens"`
	// TokenList is GET /tokenlist.json as last stored (tokenlist.go); absent before the first.
	TokenList *storedList `json:"tokenList,omitempty"`
	// Directory is GET /relayers.json as last stored (relayers.go); absent before its first
	// change.
	Directory *storedDirectory `json:"directory,omitempty"`
}

// storedToken is one entry as kept on disk. A stored icon is kept by file name, so a change of
// PUBLIC_BASE_URL changes every icon URL at once; an external icon is kept as its URL.
type storedToken struct {
	Address         string `json:"address"`
	Name            string `json:"name"`
	Symbol          string `json:"symbol"`
	Decimals        uint8  `json:"decimals"`
	TokenID         string `json:"tokenId"`
	IconURL         string `json:"iconUrl,omitempty"`
	IconFile        string `json:"iconFile,omitempty"`
	Category        string `json:"category"`
	Enabled         bool   `json:"enabled"`
	SortOrder       int32  `json:"sortOrder"`
	UnderlyingChain string `json:"underlyingChain"`
}

// loadStore reads DATA_FILE. A missing file is an empty registry (found is false). A file that
// cannot be read or does not hold a valid registry is an error naming the file; the caller must
// then refuse to start and never overwrite it.
func loadStore(path string) (f storeFile, found bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return storeFile{Version: fileVersion}, false, nil
	}
	if err != nil {
		return f, false, fmt.Errorf("data file %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, true, fmt.Errorf("data file %s is not valid JSON: %w", path, err)
	}
	if err := f.validate(); err != nil {
		return f, true, fmt.Errorf("data file %s: %w", path, err)
	}
	return f, true, nil
}

// validate checks that every entry is well-formed and that each tokenId is the one the file's
// chain id gives.
func (f storeFile) validate() error {
	if f.Version != fileVersion {
		return fmt.Errorf("unknown version %d (this build reads version %d)", f.Version, fileVersion)
	}
	if f.ChainID == 0 && len(f.Tokens) > 0 {
		return errors.New("chainId is missing")
	}
	if l := f.TokenList; l != nil && (l.Version.Major < 1 || l.Version.Minor < 0 || l.Version.Patch < 0 || l.Tokens == nil) {
		return errors.New("tokenList is not a stored token list")
	}
	if err := f.Directory.validate(f.ChainID); err != nil {
		return err
	}
	seen := map[common.Address]bool{}
	for i, t := range f.Tokens {
		if !common.IsHexAddress(t.Address) {
			return fmt.Errorf("token %d: address %q is not an address", i, t.Address)
		}
		addr := common.HexToAddress(t.Address)
		if seen[addr] {
			return fmt.Errorf("token %d: %s is listed twice", i, addr.Hex())
		}
		seen[addr] = true
		if t.Symbol == "" {
			return fmt.Errorf("token %s: empty symbol", addr.Hex())
		}
		want, err := tokenid.Hex(addr, f.ChainID)
		if err != nil {
			return err
		}
		if t.TokenID != want {
			return fmt.Errorf("token %s: tokenId %s is not Poseidon(address, %d)", addr.Hex(), t.TokenID, f.ChainID)
		}
		if t.IconFile != "" && !iconFilePattern.MatchString(t.IconFile) {
			return fmt.Errorf("token %s: iconFile %q is not a stored icon name", addr.Hex(), t.IconFile)
		}
	}
	return nil
}

// chain is the chain id the store's contents were made for, and whether they pin it: tokens
// (their tokenIds) or a relayer directory (its entries' chain) were stored for it.
func (f storeFile) chain() (id uint64, pinned bool) {
	id = f.ChainID
	if id == 0 && f.Directory != nil {
		id = f.Directory.ChainID
	}
	return id, len(f.Tokens) > 0 || f.Directory != nil
}

// saveStore writes f to path atomically.
func saveStore(path string, f storeFile) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'))
}
