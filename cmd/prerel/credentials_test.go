package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/prerel/prerel/catalogue"
)

// authLog records the Authorization header of every request a test
// server saw.
type authLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *authLog) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, r.URL.Path+" "+r.Header.Get("Authorization"))
}

func (l *authLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.seen, "\n")
}

// TestResolveSendsTerraformCredentials runs resolve against a private
// registry on 127.0.0.1 that wants a token, with the token where
// Terraform keeps it: a credentials block in the CLI configuration or
// credentials.tfrc.json. The token reaches the registry's host and no
// other: not a second server the discovery document names.
func TestResolveSendsTerraformCredentials(t *testing.T) {
	const token = "TOKEN-FOR-THE-REGISTRY"
	var elsewhere authLog
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.add(r)
		w.Write([]byte(`{"versions":[{"version":"2.0.0"}]}`))
	}))
	defer other.Close()
	var here authLog
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		here.add(r)
		switch {
		case r.URL.Path == "/r/.well-known/terraform.json":
			// Modules here; providers on the other server.
			w.Write([]byte(`{"modules.v1": "/r/m/", "providers.v1": "` + other.URL + `/p/"}`))
		case r.Header.Get("Authorization") != "Bearer "+token:
			http.Error(w, "who are you?", http.StatusUnauthorized)
		default:
			w.Write([]byte(`{"modules":[{"versions":[{"version":"1.0.0"},{"version":"1.1.0"}]}]}`))
		}
	}))
	defer reg.Close()
	host := strings.TrimPrefix(reg.URL, "http://")

	root := t.TempDir()
	writeFile(t, filepath.Join(root, "main.tf"), `
module "private" {
  source  = "reg.example/ns/name/aws"
  version = ">= 1.0.0"
}
terraform {
  required_providers {
    thing = { source = "reg.example/ns/thing" }
  }
}
`)
	home := t.TempDir()
	cliConfig := filepath.Join(home, "cli.tfrc")
	writeFile(t, cliConfig, `credentials "`+host+`" { token = "`+token+`" }`+"\n")
	writeFile(t, filepath.Join(home, ".terraform.d", "credentials.tfrc.json"),
		`{"credentials": {"`+host+`": {"token": "`+token+`"}}}`)

	tests := []struct {
		name    string
		environ []string
		code    int
		stdout  string
		stderr  string
	}{
		{
			name:    "credentials block in TF_CLI_CONFIG_FILE",
			environ: []string{"HOME=" + home, "TF_CLI_CONFIG_FILE=" + cliConfig},
			code:    exitOK,
			stdout:  "1.1.0",
		},
		{
			name:    "credentials.tfrc.json",
			environ: []string{"HOME=" + home},
			code:    exitOK,
			stdout:  "1.1.0",
		},
		{
			name:    "no credentials",
			environ: []string{"HOME=" + t.TempDir()},
			code:    exitFailure,
			stderr:  `401 Unauthorized; no token for ` + host + ` was found`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			here.seen, elsewhere.seen = nil, nil
			var stdout, stderr bytes.Buffer
			e := &env{
				stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
				registry: catalogue.New(),
				getenv:   testEnv(nil),
				environ:  func() []string { return tt.environ },
			}
			code := run(e, []string{"resolve", "--retries", "0", "--registry-url", "reg.example=" + reg.URL + "/r", root})
			out := stdout.String() + stderr.String()
			if code != tt.code || !strings.Contains(stdout.String(), tt.stdout) || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("exit %d, want %d with %q on stdout and %q on stderr:\n%s", code, tt.code, tt.stdout, tt.stderr, out)
			}
			if strings.Contains(out, token) {
				t.Errorf("the token is printed:\n%s", out)
			}
			if !strings.Contains(elsewhere.String(), "/p/ns/thing/versions") {
				t.Errorf("the provider's registry was not asked:\n%s", elsewhere.String())
			}
			if strings.Contains(elsewhere.String(), "Bearer") {
				t.Errorf("the token reached another host:\n%s", elsewhere.String())
			}
			if tt.stdout != "" && !strings.Contains(here.String(), "/r/m/ns/name/aws/versions Bearer "+token) {
				t.Errorf("the registry did not get the token:\n%s", here.String())
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
