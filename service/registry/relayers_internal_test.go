package registry

import "testing"

// A relayer's URL: https anywhere, http on loopback alone, stored in one spelling.
func TestRelayerURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://Relayer.Example/":          "https://relayer.example",
		"https://relayer.example:8443/a/b/": "https://relayer.example:8443/a/b",
		"http://localhost:3010":             "http://localhost:3010",
		"http://127.0.0.2:3010/":            "http://127.0.0.2:3010",
		"http://[::1]:3010":                 "http://[::1]:3010",
		"https://relayer.example/a%20b":     "https://relayer.example/a%20b",
		"http://relayer.example":            "",
		"http://10.0.0.1:3010":              "",
		"http://[::2]:3010":                 "",
		"ws://localhost:3010":               "",
		"https://u@relayer.example":         "",
		"https://relayer.example/?":         "",
		"https://relayer.example/#top":      "",
		"https://relayer.example#":          "",
		"https://:443/":                     "",
		"https:relayer.example":             "",
		"relayer.example":                   "",
	} {
		got, err := relayerURL(in)
		if (err == nil) != (want != "") || got != want {
			t.Errorf("relayerURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
