package edge

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	middleware "github.com/oapi-codegen/nethttp-middleware"
)

// errNoAdminRoutes is what an operation under bearerAuth meets in a service with no admin key
// set: its admin routes do not exist (404), rather than exist behind a key no one has (401).
var errNoAdminRoutes = errors.New("no admin key is set: no admin routes")

// validator returns the kin-openapi request validation middleware for spec (whose servers
// NewHandler has removed: routes match on paths only). Security schemes
// named "bearerAuth" pass when the admin middleware marked the request as an admin's; with no
// admin key (admin false) their operations answer 404. A scheme of a key in a header (apiKey:
// a service's own keys, the relayer's sponsors') passes when the request carries the header:
// the service checks the key itself, and answers a wrong one with its own code.
func validator(spec *openapi3.T, admin bool) func(http.Handler) http.Handler {
	validate := middleware.OapiRequestValidatorWithOptions(spec, &middleware.Options{
		// Not DoNotValidateServers: it clears the document's servers, a write to the document
		// every handler of the process shares (NewHandler cleared them once).
		SilenceServersWarning: true,
		Options: openapi3filter.Options{
			AuthenticationFunc: func(ctx context.Context, in *openapi3filter.AuthenticationInput) error {
				switch {
				case in.SecuritySchemeName == "bearerAuth" && !admin:
					return errNoAdminRoutes
				case in.SecuritySchemeName == "bearerAuth" && IsAdmin(in.RequestValidationInput.Request.Context()):
					return nil
				case in.SecurityScheme.Type == "apiKey" && in.SecurityScheme.In == "header" &&
					in.RequestValidationInput.Request.Header.Get(in.SecurityScheme.Name) != "":
					return nil
				}
				return ErrUnauthorized
			},
		},
		ErrorHandlerWithOpts: func(ctx context.Context, err error, w http.ResponseWriter, r *http.Request, opts middleware.ErrorHandlerOpts) {
			WriteError(w, r, validationError(r, err, opts.StatusCode))
		},
	})
	plain := plainReads(spec)
	return func(next http.Handler) http.Handler {
		validated := validate(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if headers, ok := plain[r.URL.Path]; ok && r.Method == http.MethodGet && r.URL.RawQuery == "" &&
				r.ContentLength == 0 && len(r.TransferEncoding) == 0 && !carriesAny(r.Header, headers) {
				next.ServeHTTP(w, r) // nothing the validator could refuse: skip its route lookup
				return
			}
			validated.ServeHTTP(w, r)
		})
	}
}

// plainReads are the GET operations a request without a query, a body or the operation's
// header parameters cannot fail validation on: a literal path (no path parameters), every
// parameter optional, no request body, and anonymous access allowed. It maps each path to the
// names of its header parameters (a request carrying one is validated).
func plainReads(spec *openapi3.T) map[string][]string {
	out := map[string][]string{}
	for path, item := range spec.Paths.Map() {
		op := item.Get
		if op == nil || strings.Contains(path, "{") || op.RequestBody != nil {
			continue
		}
		security := spec.Security
		if op.Security != nil {
			security = *op.Security
		}
		anonymous := len(security) == 0
		for _, req := range security {
			anonymous = anonymous || len(req) == 0
		}
		if !anonymous {
			continue
		}
		headers, ok := []string{}, true
		for _, ref := range append(append(openapi3.Parameters{}, item.Parameters...), op.Parameters...) {
			p := ref.Value
			if p == nil || p.Required || p.In == openapi3.ParameterInPath || p.In == openapi3.ParameterInCookie {
				ok = false
				break
			}
			if p.In == openapi3.ParameterInHeader {
				headers = append(headers, http.CanonicalHeaderKey(p.Name)) // as net/http spells them (carriesAny)
			}
		}
		if ok {
			out[path] = headers
		}
	}
	return out
}

// carriesAny reports whether h has a value for one of names, spelled as net/http spells the
// names it reads (canonical).
func carriesAny(h http.Header, names []string) bool {
	for _, n := range names {
		if headerValue(h, n) != "" {
			return true
		}
	}
	return false
}

// validationError turns what the validator reports about r into the service's error shape,
// with a message that names the field at fault.
func validationError(r *http.Request, err error, status int) *Error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return AsError(tooLarge)
	}
	var security *openapi3filter.SecurityRequirementsError
	if errors.As(err, &security) || status == http.StatusUnauthorized {
		if security != nil && slices.ContainsFunc(security.Errors, func(e error) bool { return errors.Is(e, errNoAdminRoutes) }) {
			return Errorf(http.StatusNotFound, CodeNotFound, "no such endpoint")
		}
		return ErrUnauthorized
	}
	if errors.Is(err, routers.ErrMethodNotAllowed) {
		return Errorf(http.StatusMethodNotAllowed, CodeMethodNotAllowed, "method not allowed")
	}
	if errors.Is(err, routers.ErrPathNotFound) || status == http.StatusNotFound {
		return Errorf(http.StatusNotFound, CodeNotFound, "no such endpoint")
	}
	var reqErr *openapi3filter.RequestError
	if errors.As(err, &reqErr) {
		if reqErr.RequestBody != nil && strings.HasPrefix(reqErr.Reason, kinUnexpectedContentType) {
			return unsupportedMediaType(r, reqErr.RequestBody)
		}
		return InvalidRequest("%s", requestErrorMessage(reqErr))
	}
	if status >= 400 && status < 500 {
		return InvalidRequest("%s", firstLine(err.Error()))
	}
	return Internal(err)
}

// kinUnexpectedContentType starts the Reason of kin-openapi's RequestError for a body whose
// Content-Type the operation does not list, or a body sent without one (openapi3filter's
// unexported prefixInvalidCT; TestUnsupportedMediaType fails if it changes).
const kinUnexpectedContentType = "header Content-Type has unexpected value"

// unsupportedMediaType is the 415 for a body of r in a media type body does not list (or of
// none): the body may be right in a form the operation does not read, so the caller is told
// what to send rather than that the request is invalid (docs/design.md, "Error codes").
func unsupportedMediaType(r *http.Request, body *openapi3.RequestBody) *Error {
	accepted := slices.Sorted(maps.Keys(body.Content))
	send := "send " + strings.Join(accepted, " or ")
	sent, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";") // its parameters (a boundary) add nothing
	if sent = strings.TrimSpace(sent); len(sent) > 100 {
		sent = sent[:100] + "…" // the caller's own words, echoed: bounded
	}
	if sent == "" {
		return Errorf(http.StatusUnsupportedMediaType, CodeUnsupportedMediaType, "the body has no Content-Type: %s", send)
	}
	return Errorf(http.StatusUnsupportedMediaType, CodeUnsupportedMediaType, "a body of Content-Type %q is not accepted here: %s", sent, send)
}

func requestErrorMessage(e *openapi3filter.RequestError) string {
	var schemaErr *openapi3.SchemaError
	hasSchemaErr := errors.As(e.Err, &schemaErr)
	switch {
	case e.Parameter != nil:
		reason := e.Reason
		if hasSchemaErr {
			reason = schemaErr.Reason
		} else if reason == "" && e.Err != nil {
			reason = firstLine(e.Err.Error())
		}
		return fmt.Sprintf("%s parameter %q: %s", e.Parameter.In, e.Parameter.Name, reason)
	case hasSchemaErr:
		field := strings.Join(schemaErr.JSONPointer(), ".")
		if schemaErr.SchemaField == "properties" || schemaErr.SchemaField == "additionalProperties" {
			if name, ok := strings.CutPrefix(schemaErr.Reason, "property \""); ok && strings.HasSuffix(name, "is unsupported") {
				name, _, _ = strings.Cut(name, "\"")
				if field != "" {
					name = field + "." + name
				}
				return fmt.Sprintf("field %q is not accepted", name)
			}
		}
		if field == "" {
			return "request body: " + schemaErr.Reason
		}
		return fmt.Sprintf("field %q: %s", field, schemaErr.Reason)
	case e.RequestBody != nil && e.Err != nil:
		return "request body: " + firstLine(e.Err.Error())
	case e.Reason != "":
		return e.Reason
	default:
		return firstLine(e.Error())
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
