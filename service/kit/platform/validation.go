package platform

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	middleware "github.com/oapi-codegen/nethttp-middleware"
)

// validator returns the kin-openapi request validation middleware for spec (whose servers
// NewHandler has removed: routes match on paths only). Security schemes
// named "bearerAuth" pass when the admin middleware marked the request as an admin's.
func validator(spec *openapi3.T) func(http.Handler) http.Handler {
	return middleware.OapiRequestValidatorWithOptions(spec, &middleware.Options{
		SilenceServersWarning: true,
		DoNotValidateServers:  true,
		Options: openapi3filter.Options{
			AuthenticationFunc: func(ctx context.Context, in *openapi3filter.AuthenticationInput) error {
				if in.SecuritySchemeName == "bearerAuth" && IsAdmin(in.RequestValidationInput.Request.Context()) {
					return nil
				}
				return ErrUnauthorized
			},
		},
		ErrorHandlerWithOpts: func(ctx context.Context, err error, w http.ResponseWriter, r *http.Request, opts middleware.ErrorHandlerOpts) {
			WriteError(w, r, validationError(err, opts.StatusCode))
		},
	})
}

// validationError turns what the validator reports into the service's error shape, with a
// message that names the field at fault.
func validationError(err error, status int) *Error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return AsError(tooLarge)
	}
	var security *openapi3filter.SecurityRequirementsError
	if errors.As(err, &security) || status == http.StatusUnauthorized {
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
		return InvalidRequest("%s", requestErrorMessage(reqErr))
	}
	if status >= 400 && status < 500 {
		return InvalidRequest("%s", firstLine(err.Error()))
	}
	return Internal(err)
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
