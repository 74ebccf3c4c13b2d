package webhook_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

// A failed delivery's error, as recorded in webhook_outbox.last_error and as logged, shows
// nothing of the endpoint's URL that may be secret: not its path (a token), not its user info,
// not even net/http's masked form of it (user:***@), whatever failed: the endpoint being down
// (nothing listens), or its answer redirecting to a Location that cannot be parsed (which quotes
// the path back). What failed is still told.
func TestADeliveryErrorShowsNoSecretOfTheURL(t *testing.T) {
	t.Parallel()
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", r.URL.Path+"%zz") // an invalid escape: net/http cannot parse it
		w.WriteHeader(http.StatusFound)
	}))
	t.Cleanup(redirecting.Close)
	for _, c := range []struct {
		name, url, want string
	}{
		{"down", "http://u:p@127.0.0.1:1/tok3n", "connection refused"},
		{"unparsable redirect", "http://u:p@" + strings.TrimPrefix(redirecting.URL, "http://") + "/tok3n", "Location"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db, err := sqldb.Open("sqlite:" + filepath.Join(t.TempDir(), "outbox.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			var logs edgetest.Logs
			o, err := webhook.Open(db, "relayer", "relayer-a", configOf(time.Second, 0, endpoint{c.url, secret}), prometheus.NewRegistry(),
				slog.New(slog.NewTextHandler(&logs, nil)))
			if err != nil {
				t.Fatal(err)
			}
			o.Start(50 * time.Millisecond)
			t.Cleanup(o.Close)
			emit(t, o, 1)
			var lastError string
			waitFor(t, "the failed delivery recorded and logged", 10*time.Second, func() bool {
				if err := db.QueryRow(`SELECT last_error FROM webhook_outbox`).Scan(&lastError); err != nil {
					t.Fatal(err)
				}
				return lastError != "" && strings.Contains(logs.String(), "did not take a delivery")
			})
			o.Close()
			logged := logs.String()
			for what, text := range map[string]string{"the recorded error": lastError, "the log": logged} {
				for _, secret := range []string{"tok3n", "u:p", ":***@"} {
					if strings.Contains(text, secret) {
						t.Errorf("%s shows %q:\n%s", what, secret, text)
					}
				}
			}
			if !strings.Contains(lastError, c.want) {
				t.Errorf("the recorded error %q does not say what failed (%q)", lastError, c.want)
			}
			t.Logf("last_error: %s", lastError)
		})
	}
}
