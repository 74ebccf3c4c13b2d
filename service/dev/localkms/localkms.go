// Package localkms runs Local KMS (github.com/nsmithuk/local-kms, an AWS KMS emulator written
// by others) as a real process for tests: the KMS signer (service/kit/kmssigner) and the
// services that sign through it are tested against it, as they would run against AWS.
//
// Local KMS and its dependencies (the AWS SDK for Go v1, goleveldb, …) are pinned in the nested
// module tool/ (a `tool` directive), not in vaultd's go.mod: nothing of vaultd links them, and
// their versions stay out of vaultd's module graph. Start builds it from there with the go
// command once per machine and version (a few seconds of CPU, then cached).
package localkms

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
)

// Version is the Local KMS pinned in tool/go.mod; the binary's name carries it.
const Version = "v0.0.0-20260228092603-2a5e92d09ab6"

// Region is the region Local KMS is started in (its ARNs carry it).
const Region = "us-east-1"

// Server is a running Local KMS.
type Server struct {
	URL string // http://127.0.0.1:PORT
}

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// build compiles Local KMS from the nested module into the temporary directory, once per version
// (another test process may be building it at the same time: each writes its own file and
// renames it into place).
func build() (string, error) {
	buildOnce.Do(func() {
		binary = filepath.Join(os.TempDir(), "vaultd-local-kms-"+Version)
		if _, err := os.Stat(binary); err == nil {
			return
		}
		gomod, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			buildErr = fmt.Errorf("go env GOMOD: %w", err)
			return
		}
		dir := filepath.Join(filepath.Dir(strings.TrimSpace(string(gomod))), "service", "dev", "localkms", "tool")
		tmp := fmt.Sprintf("%s.%d", binary, os.Getpid())
		cmd := exec.Command("go", "build", "-o", tmp, "github.com/nsmithuk/local-kms")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build Local KMS in %s: %w\n%s", dir, err, out)
			return
		}
		buildErr = os.Rename(tmp, binary)
	})
	return binary, buildErr
}

var started = regexp.MustCompile(`Local KMS started on [0-9.]+:([0-9]+)`)

// Start runs a Local KMS with an empty store in a temporary directory, on a port the system
// picks, until the test ends. (Local KMS listens on every interface; the tests reach it on
// loopback.)
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := build()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(bin)
	cmd.Env = []string{"PORT=0", "KMS_REGION=" + Region, "KMS_ACCOUNT_ID=111122223333",
		"KMS_DATA_PATH=" + filepath.Join(dir, "data"), "KMS_SEED_PATH=" + filepath.Join(dir, "no-seed.yaml")}
	out, err := cmd.StderrPipe() // logrus writes there
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	port := make(chan string, 1)
	go func() {
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			if m := started.FindStringSubmatch(lines.Text()); m != nil {
				port <- m[1]
				break
			}
		}
		_, _ = io.Copy(io.Discard, out) // keep reading: a full pipe would stall it
	}()
	select {
	case p := <-port:
		return &Server{URL: "http://127.0.0.1:" + p}
	case <-time.After(30 * time.Second):
		t.Fatal("Local KMS did not say it started within 30s")
		return nil
	}
}

// Setenv points the AWS SDK's standard configuration, which reads the process's environment,
// at url (Local KMS, or Faults before it) until the test ends: the region, made-up credentials,
// and no instance metadata or shared files to look in. A service started in the test reaches
// KMS there.
func Setenv(t testing.TB, url string) {
	t.Helper()
	for k, v := range Env(t, url) {
		t.Setenv(k, v)
	}
}

// Env is what Setenv sets, for a process the test starts (a parallel test cannot Setenv).
func Env(t testing.TB, url string) map[string]string {
	return map[string]string{"AWS_REGION": Region, "AWS_ENDPOINT_URL_KMS": url,
		"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "AWS_EC2_METADATA_DISABLED": "true",
		"AWS_CONFIG_FILE": t.TempDir() + "/none", "AWS_SHARED_CREDENTIALS_FILE": t.TempDir() + "/none"}
}

// Client is a KMS client of url, credentials made up (Local KMS checks none).
func Client(url string) *kms.Client {
	return kms.New(kms.Options{Region: Region, BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")})
}

// CreateKey creates a signing key of spec (kmstypes.KeySpecEccSecgP256k1 for a wallet) and
// returns its id.
func (s *Server) CreateKey(t testing.TB, spec kmstypes.KeySpec) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := Client(s.URL).CreateKey(ctx, &kms.CreateKeyInput{KeySpec: spec, KeyUsage: kmstypes.KeyUsageTypeSignVerify})
	if err != nil {
		t.Fatal(err)
	}
	return aws.ToString(out.KeyMetadata.KeyId)
}
