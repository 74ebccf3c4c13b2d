package registry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
	"github.com/seed018cc74c/vaultd/service/registry"
)

// Addresses of the directory's tests: the dev chain's first accounts, as hex of mixed case (their
// EIP-55 checksums) and in lower case.
const (
	vaultAddr    = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
	operatorAddr = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	receiverAddr = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"
)

// directory is GET /relayers.json as the generated client reads it, sent etag in If-None-Match
// when not "".
func directory(t testing.TB, c *registryapi.ClientWithResponses, etag string) *registryapi.GetRelayerDirectoryResponse {
	t.Helper()
	params := &registryapi.GetRelayerDirectoryParams{}
	if etag != "" {
		params.IfNoneMatch = &etag
	}
	resp, err := c.GetRelayerDirectoryWithResponse(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// directoryAt is the directory a registry serves, "major.minor.patch" of its version and its ETag.
func directoryAt(t testing.TB, s *server) (registryapi.RelayerDirectory, string, string) {
	t.Helper()
	resp := directory(t, s.public, "")
	if resp.StatusCode() != 200 || resp.JSON200 == nil {
		t.Fatalf("GET /relayers.json: %d %s", resp.StatusCode(), resp.Body)
	}
	v := resp.JSON200.Version
	return *resp.JSON200, fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch), resp.HTTPResponse.Header.Get("ETag")
}

func relayerInput(name, url string) registryapi.RelayerInput {
	return registryapi.RelayerInput{Name: name, Url: url, ChainId: int64(testChain.ChainID), Vault: vaultAddr, Operator: operatorAddr, FeeReceiver: receiverAddr}
}

func fieldsOf(in registryapi.RelayerInput) registryapi.RelayerFields {
	return registryapi.RelayerFields{Url: in.Url, ChainId: in.ChainId, Vault: in.Vault, Operator: in.Operator, FeeReceiver: in.FeeReceiver}
}

func addRelayer(t testing.TB, c *registryapi.ClientWithResponses, in registryapi.RelayerInput) *registryapi.AddRelayerResponse {
	t.Helper()
	resp, err := c.AddRelayerWithResponse(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func updateRelayer(t testing.TB, c *registryapi.ClientWithResponses, name string, f registryapi.RelayerFields) *registryapi.UpdateRelayerResponse {
	t.Helper()
	resp, err := c.UpdateRelayerWithResponse(ctx, name, f)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func removeRelayer(t testing.TB, c *registryapi.ClientWithResponses, name string) *registryapi.RemoveRelayerResponse {
	t.Helper()
	resp, err := c.RemoveRelayerWithResponse(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// stores are the registry's two backends, each as the settings a registry on it starts with: the
// data file (the registry's own temporary folder), and a Postgres of the test's own.
var stores = map[string]func(t *testing.T) map[string]string{
	"file":     func(*testing.T) map[string]string { return map[string]string{} },
	"postgres": func(t *testing.T) map[string]string { return map[string]string{"DATABASE_URL": sqldbtest.Postgres(t)} },
}

// The directory through a registry's life, on each store: empty at first; an added relayer is a
// minor version with a new ETag, a change of its fields a patch, a removal a major; an ETag
// answers 304 until the directory changes; a write that changes nothing, a duplicate, bad input
// and a write without the admin key change nothing; a restart serves the same bytes.
func TestRelayerDirectory(t *testing.T) {
	t.Parallel()
	for name, store := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			over := store(t)
			dir := t.TempDir()
			s := startServer(t, dir, over)

			d, v, etag := directoryAt(t, s)
			if v != "1.0.0" || len(d.Relayers) != 0 || d.Timestamp != nil || d.ChainId != int64(testChain.ChainID) || etag == "" {
				t.Fatalf("an empty directory: %s %+v, ETag %q", v, d, etag)
			}
			h := directory(t, s.public, "").HTTPResponse.Header
			if h.Get("Cache-Control") != "public, max-age=15" || h.Get("Access-Control-Allow-Origin") != "*" || h.Get("Content-Type") != "application/json" {
				t.Fatalf("headers %v", h)
			}
			if r := directory(t, s.public, etag); r.StatusCode() != 304 || r.HTTPResponse.Header.Get("ETag") != etag {
				t.Fatalf("If-None-Match with the directory's ETag: %d", r.StatusCode())
			}
			unchanged := func(what string) {
				t.Helper()
				if _, got, e := directoryAt(t, s); e != etag {
					t.Fatalf("%s changed the directory: now %s", what, got)
				}
			}

			// Added: a minor version. The URL is stored normalized, the addresses checksummed.
			acme := relayerInput("acme", "https://Relayer.ACME.example/vaultd/")
			acme.Operator = strings.ToLower(operatorAddr)
			r := addRelayer(t, s.admin, acme)
			if r.StatusCode() != 201 || r.HTTPResponse.Header.Get("Location") != "/relayers/acme" {
				t.Fatalf("POST /relayers: %d %s", r.StatusCode(), r.Body)
			}
			want := registryapi.Relayer{Name: "acme", Url: "https://relayer.acme.example/vaultd", ChainId: int64(testChain.ChainID),
				Vault: vaultAddr, Operator: operatorAddr, FeeReceiver: receiverAddr}
			if *r.JSON201 != want {
				t.Fatalf("added %+v, want %+v", *r.JSON201, want)
			}
			old := etag
			d, v, etag = directoryAt(t, s)
			if v != "1.1.0" || etag == old || len(d.Relayers) != 1 || d.Relayers[0] != want || d.Timestamp == nil {
				t.Fatalf("after an add: %s %+v (ETag %s, before %s)", v, d, etag, old)
			}
			if r := directory(t, s.public, old); r.StatusCode() != 200 {
				t.Fatalf("the empty directory's ETag after an add: %d, want 200", r.StatusCode())
			}
			if r := directory(t, s.public, etag); r.StatusCode() != 304 {
				t.Fatalf("If-None-Match with the new ETag: %d, want 304", r.StatusCode())
			}
			// A dev stack's relayer, on loopback over http; listed after acme, by name.
			if r := addRelayer(t, s.admin, relayerInput("dev", "http://127.0.0.1:3010")); r.StatusCode() != 201 {
				t.Fatalf("a loopback relayer over http: %d %s", r.StatusCode(), r.Body)
			}
			d, v, etag = directoryAt(t, s)
			if v != "1.2.0" || len(d.Relayers) != 2 || d.Relayers[1].Name != "dev" || d.Relayers[1].Url != "http://127.0.0.1:3010" {
				t.Fatalf("after a second add: %s %+v", v, d)
			}

			// A change of a listed relayer's fields: a patch. The same fields again: nothing.
			moved := fieldsOf(acme)
			moved.FeeReceiver = operatorAddr
			if r := updateRelayer(t, s.admin, "acme", moved); r.StatusCode() != 200 || r.JSON200.FeeReceiver != operatorAddr {
				t.Fatalf("PUT /relayers/acme: %d %s", r.StatusCode(), r.Body)
			}
			if _, v, etag = directoryAt(t, s); v != "1.2.1" {
				t.Fatalf("after an update: %s, want 1.2.1", v)
			}
			if r := updateRelayer(t, s.admin, "acme", moved); r.StatusCode() != 200 {
				t.Fatalf("the same update again: %d %s", r.StatusCode(), r.Body)
			}
			unchanged("an update that changes nothing")

			// Duplicates: a name listed, a URL listed (spelled otherwise), another entry's URL.
			for what, in := range map[string]registryapi.RelayerInput{
				"the same name":                   relayerInput("acme", "https://other.example"),
				"the same URL, spelled otherwise": relayerInput("acme2", "https://RELAYER.acme.example/vaultd/"),
			} {
				r := addRelayer(t, s.admin, in)
				wantError(t, what, 409, r.Body, r.StatusCode(), "RELAYER_EXISTS")
			}
			taken := fieldsOf(acme)
			taken.Url = "http://127.0.0.1:3010/"
			r2 := updateRelayer(t, s.admin, "acme", taken)
			wantError(t, "an update to another entry's URL", 409, r2.Body, r2.StatusCode(), "RELAYER_EXISTS")
			unchanged("a duplicate")

			// Bad input: refused with its code, nothing changed.
			bad := func(what string, change func(*registryapi.RelayerInput), status int, code string) {
				t.Helper()
				in := relayerInput("newcomer", "https://newcomer.example")
				change(&in)
				r := addRelayer(t, s.admin, in)
				wantError(t, what, status, r.Body, r.StatusCode(), code)
				if in.Name == "newcomer" { // the fields are bad: so is an update to them
					u := updateRelayer(t, s.admin, "dev", fieldsOf(in))
					wantError(t, what+" (update)", status, u.Body, u.StatusCode(), code)
				}
				unchanged(what)
			}
			bad("an http URL off loopback", func(in *registryapi.RelayerInput) { in.Url = "http://relayer.example" }, 400, "INVALID_REQUEST")
			bad("another scheme", func(in *registryapi.RelayerInput) { in.Url = "ftp://relayer.example" }, 400, "INVALID_REQUEST")
			bad("a URL with a query", func(in *registryapi.RelayerInput) { in.Url = "https://relayer.example/?x=1" }, 400, "INVALID_REQUEST")
			bad("a URL with a user", func(in *registryapi.RelayerInput) { in.Url = "https://me:secret@relayer.example" }, 400, "INVALID_REQUEST")
			bad("a URL without a host", func(in *registryapi.RelayerInput) { in.Url = "https:///reveal" }, 400, "INVALID_REQUEST")
			bad("not an address", func(in *registryapi.RelayerInput) { in.Vault = "0x1234" }, 400, "INVALID_REQUEST")
			bad("a checksum that fails", func(in *registryapi.RelayerInput) {
				in.Operator = strings.Replace(operatorAddr, "C51812dc", "c51812DC", 1)
			}, 400, "INVALID_REQUEST")
			bad("the zero address", func(in *registryapi.RelayerInput) { in.FeeReceiver = "0x0000000000000000000000000000000000000000" }, 400, "INVALID_REQUEST")
			bad("another chain's id", func(in *registryapi.RelayerInput) { in.ChainId = 1 }, 422, "CHAIN_MISMATCH")
			bad("a bad name", func(in *registryapi.RelayerInput) { in.Name = "Acme Relayer" }, 400, "INVALID_REQUEST")
			bad("a name that ends in -", func(in *registryapi.RelayerInput) { in.Name = "acme-" }, 400, "INVALID_REQUEST")
			pathName := updateRelayer(t, s.admin, "Acme", moved)
			wantError(t, "PUT of a name that is not one", 400, pathName.Body, pathName.StatusCode(), "INVALID_REQUEST")

			// Unknown names.
			u := updateRelayer(t, s.admin, "nobody", moved)
			wantError(t, "PUT of an unlisted name", 404, u.Body, u.StatusCode(), "RELAYER_NOT_FOUND")
			rm := removeRelayer(t, s.admin, "nobody")
			wantError(t, "DELETE of an unlisted name", 404, rm.Body, rm.StatusCode(), "RELAYER_NOT_FOUND")

			// Without the admin key, or with another.
			wrong := newClient(t, s.url, "not-the-admin-key-0123456789")
			for _, c := range []*registryapi.ClientWithResponses{s.public, wrong} {
				a := addRelayer(t, c, relayerInput("newcomer", "https://newcomer.example"))
				wantError(t, "POST without the admin key", 401, a.Body, a.StatusCode(), "UNAUTHORIZED")
				u := updateRelayer(t, c, "acme", fieldsOf(acme))
				wantError(t, "PUT without the admin key", 401, u.Body, u.StatusCode(), "UNAUTHORIZED")
				d := removeRelayer(t, c, "acme")
				wantError(t, "DELETE without the admin key", 401, d.Body, d.StatusCode(), "UNAUTHORIZED")
			}
			unchanged("writes without the admin key")
			if got := relayersGauge(t, s); got != "2" {
				t.Fatalf("vaultd_registry_relayers %s, want 2", got)
			}

			// Removed: a major version.
			if r := removeRelayer(t, s.admin, "dev"); r.StatusCode() != 204 {
				t.Fatalf("DELETE /relayers/dev: %d %s", r.StatusCode(), r.Body)
			}
			d, v, etag = directoryAt(t, s)
			if v != "2.0.0" || len(d.Relayers) != 1 || d.Relayers[0].Name != "acme" {
				t.Fatalf("after a removal: %s %+v", v, d)
			}
			if got := relayersGauge(t, s); got != "1" {
				t.Fatalf("vaultd_registry_relayers %s, want 1", got)
			}
			body := directory(t, s.public, "").Body
			s.close()

			// A restart serves the same bytes, so the same ETag.
			again := startServer(t, dir, over)
			if r := directory(t, again.public, ""); string(r.Body) != string(body) || r.HTTPResponse.Header.Get("ETag") != etag {
				t.Fatalf("after a restart: %s (ETag %s), want %s (%s)", r.Body, r.HTTPResponse.Header.Get("ETag"), body, etag)
			}
		})
	}
}

func relayersGauge(t testing.TB, s *server) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^vaultd_registry_relayers (\d+)$`).FindStringSubmatch(edgetest.Scrape(t, s.url))
	if m == nil {
		t.Fatal("no vaultd_registry_relayers")
	}
	return m[1]
}

// Two registries on one Postgres: a change at either is served by the other, with the same bytes
// and ETag (an ETag from one is a 304 at the other).
func TestRelayerDirectoryReplicas(t *testing.T) {
	t.Parallel()
	db := sqldbtest.Postgres(t)
	replicas := []*server{startServer(t, "", map[string]string{"DATABASE_URL": db}), startServer(t, "", map[string]string{"DATABASE_URL": db})}
	follows := func(from, to *server, version string) {
		t.Helper()
		edgetest.WaitFor(t, "the other replica to serve "+version, func() bool { _, v, _ := directoryAt(t, to); return v == version })
		_, _, etag := directoryAt(t, from)
		if r := directory(t, to.public, etag); r.StatusCode() != 304 {
			t.Fatalf("a replica answers the other's ETag with %d", r.StatusCode())
		}
		if string(directory(t, to.public, "").Body) != string(directory(t, from.public, "").Body) {
			t.Fatal("the replicas serve different directories")
		}
	}
	follows(replicas[0], replicas[1], "1.0.0")
	if r := addRelayer(t, replicas[0].admin, relayerInput("acme", "https://relayer.acme.example")); r.StatusCode() != 201 {
		t.Fatalf("add at replica 0: %d %s", r.StatusCode(), r.Body)
	}
	follows(replicas[0], replicas[1], "1.1.0")
	// The name is taken at the other replica too: it reads the entries in the write's transaction.
	dup := addRelayer(t, replicas[1].admin, relayerInput("acme", "https://elsewhere.example"))
	wantError(t, "the same name at the other replica", 409, dup.Body, dup.StatusCode(), "RELAYER_EXISTS")
	f := fieldsOf(relayerInput("acme", "https://relayer2.acme.example"))
	if r := updateRelayer(t, replicas[1].admin, "acme", f); r.StatusCode() != 200 {
		t.Fatalf("update at replica 1: %d %s", r.StatusCode(), r.Body)
	}
	follows(replicas[1], replicas[0], "1.1.1")
	if r := removeRelayer(t, replicas[0].admin, "acme"); r.StatusCode() != 204 {
		t.Fatalf("remove at replica 0: %d %s", r.StatusCode(), r.Body)
	}
	follows(replicas[0], replicas[1], "2.0.0")
}

// A data file whose directory was made for another chain is refused at start, as one whose tokens
// were: its relayers serve that chain, not this one.
func TestRelayerDirectoryPinsTheChain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServer(t, dir, nil)
	if r := addRelayer(t, s.admin, relayerInput("acme", "https://relayer.acme.example")); r.StatusCode() != 201 {
		t.Fatalf("add: %d %s", r.StatusCode(), r.Body)
	}
	s.close()
	path := filepath.Join(dir, "tokens.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	other := float64(testChain.ChainID + 1)
	f["chainId"] = other
	d := f["directory"].(map[string]any)
	d["chainId"] = other
	for _, e := range d["relayers"].([]any) {
		e.(map[string]any)["chainId"] = other
	}
	data, _ = json.Marshal(f)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := registry.LoadConfig(env(dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := registry.New(context.Background(), cfg, registry.Options{})
	if err == nil {
		svc.Close()
		t.Fatal("a registry started on a data file whose relayers are of another chain")
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("chain %d", testChain.ChainID+1)) {
		t.Fatalf("the refusal does not name the file's chain: %v", err)
	}
}
