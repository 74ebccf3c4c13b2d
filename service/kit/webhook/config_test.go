package webhook_test

import (
	"strings"
	"testing"
	"time"

	"github.com/seed018cc74c/vaultd/service/kit/config"
	"github.com/seed018cc74c/vaultd/service/kit/webhook"
)

// endpoint is one of the tests' endpoints: its URL and its secret.
type endpoint struct{ url, secret string }

// configOf is the outbox's configuration for the tests' endpoints.
func configOf(timeout, expireAfter time.Duration, eps ...endpoint) webhook.Config {
	c := webhook.Config{Timeout: timeout, ExpireAfter: expireAfter}
	for _, ep := range eps {
		c.Endpoints = append(c.Endpoints, webhook.Endpoint{URL: ep.url, Secret: ep.secret})
	}
	return c
}

func endpointsOf(c webhook.Config) []endpoint {
	var out []endpoint
	for _, ep := range c.Endpoints {
		out = append(out, endpoint{ep.URL, ep.Secret})
	}
	return out
}

// WEBHOOK_URLS entries are a URL, or a URL and that endpoint's own secret; WEBHOOK_SECRET signs
// for the endpoints without one and is required only then; WEBHOOK_EXPIRE_AFTER is a duration.
// Every bad value is reported at once, naming the entry by its position, never its text.
func TestLoadConfig(t *testing.T) {
	const own, shared = "a-secret-of-endpoint-b", "the-shared-secret-of-all"
	load := func(env map[string]string) (webhook.Config, error) {
		e := config.NewEnv(func(k string) string { return env[k] })
		c := webhook.LoadConfig(e)
		return c, e.Err()
	}
	c, err := load(map[string]string{"WEBHOOK_URLS": "https://a.example/hooks?token=t1,\nhttps://b.example/hooks " + own, "WEBHOOK_SECRET": shared, "WEBHOOK_EXPIRE_AFTER": "1h"})
	want := []endpoint{{"https://a.example/hooks?token=t1", shared}, {"https://b.example/hooks", own}}
	if got := endpointsOf(c); err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] || c.ExpireAfter != time.Hour || c.Timeout != 10*time.Second {
		t.Fatalf("%+v %v; want %v, 1h, 10s", c, err, want)
	}
	// Every endpoint with its own secret: WEBHOOK_SECRET is not needed.
	if c, err := load(map[string]string{"WEBHOOK_URLS": "https://b.example/hooks " + own}); err != nil || endpointsOf(c)[0].secret != own || c.ExpireAfter != 72*time.Hour {
		t.Fatalf("an endpoint with its own secret alone: %+v %v", c, err)
	}
	_, err = load(map[string]string{
		"WEBHOOK_URLS": "ftp://c.example/x, https://b.example/hooks short-secret, https://a.example/ https://d.example/, " +
			"https://a.example/, https://e.example/ " + own + " extra, https://f.example/",
		"WEBHOOK_EXPIRE_AFTER": "soon",
	})
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		"entry 1 is not an http(s) URL", "entry 2: its secret must be at least 16 characters",
		"entry 3: a URL where its secret goes", "entry 4: its URL is listed before", "entry 5: want a URL",
		"WEBHOOK_SECRET (or WEBHOOK_SECRET_FILE) is required", "WEBHOOK_EXPIRE_AFTER",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q not in the problems:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "short-secret") || strings.Contains(err.Error(), own) || strings.Contains(err.Error(), "example") {
		t.Errorf("a problem shows a secret or a URL:\n%v", err)
	}
}
