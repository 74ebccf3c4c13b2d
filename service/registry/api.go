package registry

import (
	"context"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/gen/registryapi"
	"github.com/seed018cc74c/vaultd/gen/registryserver"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/kit/address"
	"github.com/seed018cc74c/vaultd/service/kit/buildversion"
)

// api implements the generated strict server interface. Errors are returned, never written:
// answers.go's answer, the registry's one way from an error to its HTTP answer, maps them.
type api struct {
	reg     *Registry
	health  *healthProbe
	started time.Time
	schema  map[string]int64 // the database's migrations at start (GET /health); nil on a data file

	listETag, tokenListETag, directoryETag headerValue // GET /tokens', GET /tokenlist.json's and GET /relayers.json's
}

var _ registryserver.StrictServerInterface = (*api)(nil)

func (a *api) ListTokens(ctx context.Context, req registryserver.ListTokensRequestObject) (registryserver.ListTokensResponseObject, error) {
	all := req.Params.IncludeDisabled != nil && *req.Params.IncludeDisabled
	if all && !edge.IsAdmin(ctx) {
		return nil, edge.ErrUnauthorized
	}
	body, etag := a.reg.List(all)
	resp := listResponse{body: body, etag: a.listETag.of(etag), cacheControl: publicList}
	if all {
		resp.cacheControl = privateList
	}
	if req.Params.IfNoneMatch != nil && etagMatches(*req.Params.IfNoneMatch, etag) {
		resp.notModified = true
	}
	return resp, nil
}

// listResponse writes a precomputed list body; nothing is encoded per request.
type listResponse struct {
	body         []byte
	etag         []string // the header's values, shared (headerValue)
	cacheControl []string
	notModified  bool
	anyOrigin    bool // Access-Control-Allow-Origin: *, unless CORS_ALLOWED_ORIGINS named the origin
}

func (a *api) GetTokenList(ctx context.Context, req registryserver.GetTokenListRequestObject) (registryserver.GetTokenListResponseObject, error) {
	body, etag, ok := a.reg.TokenList()
	if !ok {
		return nil, refuse(TokenListEmpty, "no token is enabled: the token list is empty")
	}
	// Web apps of any origin read token lists (an exchange's page fetches the lists its users
	// add): a public read, sent without credentials.
	resp := listResponse{body: body, etag: a.tokenListETag.of(etag), cacheControl: publicList, anyOrigin: true}
	if req.Params.IfNoneMatch != nil && etagMatches(*req.Params.IfNoneMatch, etag) {
		resp.notModified = true
	}
	return resp, nil
}

func (l listResponse) VisitGetTokenListResponse(w http.ResponseWriter) error {
	return l.VisitListTokensResponse(w)
}

func (l listResponse) VisitListTokensResponse(w http.ResponseWriter) error {
	h := w.Header()
	h["Etag"] = l.etag
	h["Cache-Control"] = l.cacheControl
	if l.anyOrigin && h.Get("Access-Control-Allow-Origin") == "" {
		h["Access-Control-Allow-Origin"] = []string{"*"}
	}
	if l.notModified {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h["Content-Type"] = jsonType
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(l.body)
	return err
}

// The values of a list's headers, shared by every answer: a header's values are a slice, and
// making one a request is an allocation a request. Their capacity is their length, so that adding
// a value to one copies it.
var (
	jsonType    = []string{"application/json"}[:1:1]
	publicList  = []string{"public, max-age=15"}[:1:1]
	privateList = []string{"private, no-store"}[:1:1]
)

// headerValue is a header's value shared by the answers while it stays the same (a list's ETag
// changes with the list).
type headerValue struct{ last atomic.Pointer[[]string] }

func (v *headerValue) of(s string) []string {
	if last := v.last.Load(); last != nil && (*last)[0] == s {
		return *last
	}
	value := []string{s}[:1:1]
	v.last.Store(&value)
	return value
}

// etagMatches applies If-None-Match's weak comparison: any listed tag, or "*".
func etagMatches(header, etag string) bool {
	for header != "" {
		var tag string
		tag, header, _ = strings.Cut(header, ",")
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == etag || tag == "*" {
			return true
		}
	}
	return false
}

func (a *api) GetToken(ctx context.Context, req registryserver.GetTokenRequestObject) (registryserver.GetTokenResponseObject, error) {
	addr, err := parseAddress(req.Address)
	if err != nil {
		return nil, err
	}
	t, ok := a.reg.Get(addr)
	if !ok {
		return nil, errTokenNotFound(addr)
	}
	return registryserver.GetToken200JSONResponse{Body: toToken(t)}, nil
}

func (a *api) UpsertToken(ctx context.Context, req registryserver.UpsertTokenRequestObject) (registryserver.UpsertTokenResponseObject, error) {
	in, err := fromTokenInput(*req.Body)
	if err != nil {
		return nil, err
	}
	t, created, err := a.reg.Upsert(ctx, in)
	if err != nil {
		return nil, err
	}
	if created {
		location := "/tokens/" + t.Address
		return registryserver.UpsertToken201JSONResponse{Body: toToken(t), Headers: registryserver.UpsertToken201ResponseHeaders{Location: &location}}, nil
	}
	return registryserver.UpsertToken200JSONResponse{Body: toToken(t)}, nil
}

func (a *api) DeleteToken(ctx context.Context, req registryserver.DeleteTokenRequestObject) (registryserver.DeleteTokenResponseObject, error) {
	addr, err := parseAddress(req.Address)
	if err != nil {
		return nil, err
	}
	if err := a.reg.Remove(ctx, addr); err != nil {
		return nil, err
	}
	return registryserver.DeleteToken204Response{}, nil
}

func (a *api) UploadTokenIcon(ctx context.Context, req registryserver.UploadTokenIconRequestObject) (registryserver.UploadTokenIconResponseObject, error) {
	addr, err := parseAddress(req.Address)
	if err != nil {
		return nil, err
	}
	if _, ok := a.reg.Get(addr); !ok {
		return nil, errTokenNotFound(addr)
	}
	data, err := readSinglePart(req.Body, a.reg.iconMax)
	if err != nil {
		return nil, err
	}
	if _, err := CheckIcon(data); err != nil {
		return nil, err
	}
	url, err := a.reg.SetIcon(ctx, addr, data)
	if err != nil {
		return nil, err
	}
	return registryserver.UploadTokenIcon200JSONResponse{Body: registryapi.IconUpload{IconUrl: url}}, nil
}

// readSinglePart reads the body's one part, refusing a second part and more than max bytes.
// The part's file name and content type are ignored: the bytes decide.
func readSinglePart(mr *multipart.Reader, max int64) ([]byte, error) {
	if mr == nil {
		return nil, edge.InvalidRequest("the body must be multipart/form-data with one file part named \"file\"")
	}
	part, err := mr.NextPart()
	if errors.Is(err, io.EOF) {
		return nil, edge.InvalidRequest("the body has no file part; send the image in a part named \"file\"")
	}
	if err != nil {
		return nil, multipartError(err)
	}
	data, err := io.ReadAll(io.LimitReader(part, max+1))
	if err != nil {
		return nil, multipartError(err)
	}
	if int64(len(data)) > max {
		return nil, iconTooLarge(max)
	}
	if len(data) == 0 {
		return nil, edge.InvalidRequest("the file part is empty")
	}
	switch _, err := mr.NextPart(); {
	case errors.Is(err, io.EOF):
		return data, nil
	case err == nil:
		return nil, edge.InvalidRequest("the body must hold exactly one part")
	default:
		return nil, multipartError(err)
	}
}

func multipartError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return err
	}
	return edge.InvalidRequest("malformed multipart body: %v", err)
}

func parseAddress(s string) (common.Address, error) {
	addr, err := address.Parse(s)
	if err != nil {
		return addr, edge.InvalidRequest("address %q: %v", s, err)
	}
	return addr, nil
}

func (a *api) GetHealth(ctx context.Context, req registryserver.GetHealthRequestObject) (registryserver.GetHealthResponseObject, error) {
	status := registryapi.Healthy
	if !a.health.ok(ctx) {
		status = registryapi.Degraded
	}
	return registryserver.GetHealth200JSONResponse{Body: registryapi.Health{
		Status:     status,
		Version:    buildversion.String(),
		Schema:     edge.Schema(a.schema),
		TokenCount: a.reg.Count(),
		Uptime:     int(time.Since(a.started) / time.Second),
	}}, nil
}

func (a *api) GetRelayerDirectory(ctx context.Context, req registryserver.GetRelayerDirectoryRequestObject) (registryserver.GetRelayerDirectoryResponseObject, error) {
	body, etag := a.reg.Directory()
	// Clients of any origin read it (a redeem page on a partner's site chooses its relayer): a
	// public read, sent without credentials.
	resp := listResponse{body: body, etag: a.directoryETag.of(etag), cacheControl: publicList, anyOrigin: true}
	if req.Params.IfNoneMatch != nil && etagMatches(*req.Params.IfNoneMatch, etag) {
		resp.notModified = true
	}
	return resp, nil
}

func (l listResponse) VisitGetRelayerDirectoryResponse(w http.ResponseWriter) error {
	return l.VisitListTokensResponse(w)
}

func (a *api) AddRelayer(ctx context.Context, req registryserver.AddRelayerRequestObject) (registryserver.AddRelayerResponseObject, error) {
	r, err := a.reg.AddRelayer(ctx, fromRelayerInput(*req.Body))
	if err != nil {
		return nil, err
	}
	location := "/relayers/" + r.Name
	return registryserver.AddRelayer201JSONResponse{Body: toRelayer(r), Headers: registryserver.AddRelayer201ResponseHeaders{Location: &location}}, nil
}

func (a *api) UpdateRelayer(ctx context.Context, req registryserver.UpdateRelayerRequestObject) (registryserver.UpdateRelayerResponseObject, error) {
	r, err := a.reg.UpdateRelayer(ctx, fromRelayerFields(req.Name, *req.Body))
	if err != nil {
		return nil, err
	}
	return registryserver.UpdateRelayer200JSONResponse{Body: toRelayer(r)}, nil
}

func (a *api) RemoveRelayer(ctx context.Context, req registryserver.RemoveRelayerRequestObject) (registryserver.RemoveRelayerResponseObject, error) {
	if err := a.reg.RemoveRelayer(ctx, req.Name); err != nil {
		return nil, err
	}
	return registryserver.RemoveRelayer204Response{}, nil
}
