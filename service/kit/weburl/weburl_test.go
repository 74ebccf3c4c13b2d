package weburl

import (
	"errors"
	"net/url"
	"testing"
)

// https anywhere; http to localhost or a loopback IP alone; nothing else, and nothing without a
// host.
func TestSecure(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]error{
		"https://relayer.example":         nil,
		"HTTPS://relayer.example:8443/a":  nil,
		"http://localhost:3010":           nil,
		"http://LocalHost/redeem":         nil,
		"http://127.0.0.1:8080/redeem":    nil,
		"http://127.0.0.2":                nil,
		"http://[::1]:8080/redeem":        nil,
		"http://relayer.example":          ErrPlainHTTP,
		"http://10.0.0.1:3010":            ErrPlainHTTP,
		"http://192.168.1.20:8080/redeem": ErrPlainHTTP,
		"http://[::2]:3010":               ErrPlainHTTP,
		"http://localhost.app.example/":   ErrPlainHTTP,
		"http://127.0.0.1.app.example/":   ErrPlainHTTP,
		"ws://localhost:3010":             ErrScheme,
		"ftp://app.example/redeem":        ErrScheme,
		"relayer.example":                 ErrScheme,
		"https://:443/":                   ErrNoHost,
		"https:relayer.example":           ErrNoHost,
		"https:///path":                   ErrNoHost,
		"http://:8080/":                   ErrNoHost,
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := Secure(u); !errors.Is(got, want) || (want == nil) != (got == nil) {
			t.Errorf("Secure(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestLoopback(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "127.0.0.1": true, "127.255.0.9": true, "::1": true,
		"": false, "example.com": false, "10.0.0.1": false, "::2": false, "[::1]": false, "localhost.example": false,
	} {
		if got := Loopback(host); got != want {
			t.Errorf("Loopback(%q) = %v, want %v", host, got, want)
		}
	}
}
