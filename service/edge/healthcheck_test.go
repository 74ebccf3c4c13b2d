package edge

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"
)

// `<service> healthcheck` exits 0 when /health answers 200 on PORT, 1 when nothing listens or
// it answers otherwise: the images' HEALTHCHECK. The test runs itself as the command.
func TestHealthcheckCommand(t *testing.T) {
	if os.Getenv("VAULTD_HEALTHCHECK_CHILD") == "1" {
		os.Args = []string{"service", "healthcheck"}
		Healthcheck(1)
		t.Fatal("Healthcheck returned")
	}
	run := func(port string) int {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHealthcheckCommand$")
		cmd.Env = append(os.Environ(), "VAULTD_HEALTHCHECK_CHILD=1", "PORT="+port)
		err := cmd.Run()
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	}
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/health" {
			status = http.StatusNotFound
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	if code := run(port); code != 0 {
		t.Fatalf("healthy service: exit %d", code)
	}
	status = http.StatusServiceUnavailable
	if code := run(port); code != 1 {
		t.Fatalf("a 503: exit %d", code)
	}
	srv.Close()
	if code := run(port); code != 1 {
		t.Fatalf("nothing listening: exit %d", code)
	}
}
