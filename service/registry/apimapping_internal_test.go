package registry

import (
	"encoding/json"
	"testing"
)

// GET /tokens lists the registry's own Token, encoded once a write; GET /tokens/{address} answers
// the document's (toToken). Both encode to the same bytes, so the lists keep the document's
// shape: a field the document gains and Token lacks, or shows otherwise, fails here.
func TestTheListsEntriesAreTheDocumentsTokens(t *testing.T) {
	t.Parallel()
	tok := Token{Address: "0x5FbDB2315678afecb367f032d93F642f64180aa3", Category: "stablecoin", Decimals: 6, Enabled: true,
		Icon: "https://example.com/usdc.png", Name: "USD Coin", SortOrder: 10, Symbol: "vUSDC", TokenID: "0x01", UnderlyingChain: "ethereum"}
	listed, err := json.Marshal(tok)
	if err != nil {
		t.Fatal(err)
	}
	answered, err := json.Marshal(toToken(tok))
	if err != nil {
		t.Fatal(err)
	}
	if string(listed) != string(answered) {
		t.Errorf("a listed token %s, answered %s", listed, answered)
	}
}
