package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestResolveRegistryFlagErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{name: "retries above the maximum", args: []string{"--retries", "1000000"}, stderr: "--retries must be between 0 and 10, got 1000000"},
		{name: "negative retries", args: []string{"--retries", "-1"}, stderr: "--retries must be between 0 and 10, got -1"},
		{name: "zero deadline", args: []string{"--registry-deadline", "0s"}, stderr: "--registry-deadline must be positive"},
		{name: "query", args: []string{"--registry-url", "http://127.0.0.1:1/ok?x=1"}, stderr: `"http://127.0.0.1:1/ok?x=1" has a query (?x=1); a registry URL takes none`},
		{name: "fragment", args: []string{"--registry-url", "reg.example=http://127.0.0.1:1/ok#frag"}, stderr: `"http://127.0.0.1:1/ok#frag" has a fragment (#frag)`},
		{name: "password in a refused URL", args: []string{"--registry-url", "http://user:s3cret@127.0.0.1:1/ok?x"}, stderr: `http://REDACTED@127.0.0.1:1/ok?x`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, "", append(append([]string{"resolve"}, tt.args...), resolveExample)...)
			if code != exitUsage || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, exitUsage, tt.stderr)
			}
			if strings.Contains(stderr, "s3cret") {
				t.Errorf("the password is printed:\n%s", stderr)
			}
		})
	}
}

// TestResolveRegistryRedactsPasswords runs resolve against a registry URL
// with a user name and password, answered 500, in every format.
func TestResolveRegistryRedactsPasswords(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ok/.well-known/terraform.json" {
			w.Write([]byte(`{"modules.v1": "/ok/m/", "providers.v1": "/ok/p/"}`))
			return
		}
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer srv.Close()
	u := "http://user:s3cret@" + strings.TrimPrefix(srv.URL, "http://") + "/ok"
	for _, args := range [][]string{
		{"--registry-url", u},
		{"--registry-url", "registry.terraform.io=" + u},
	} {
		for _, format := range []string{"text", "json", "markdown"} {
			a := append(append([]string{"resolve", "--retries", "0", "--format", format}, args...), resolveExample)
			code, stdout, stderr := runCLI(t, "", a...)
			if code != exitFailure {
				t.Errorf("%s: exit %d, want %d\n%s", format, code, exitFailure, stderr)
			}
			if out := stdout + stderr; strings.Contains(out, "s3cret") || strings.Contains(out, "user:") || !strings.Contains(out, "REDACTED@") {
				t.Errorf("%s %q: output:\n%s", format, args, out)
			}
		}
	}
}

func TestResolveRegistryDeadline(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer srv.Close()
	start := time.Now()
	code, _, stderr := runCLI(t, "", "resolve", "--registry-url", srv.URL, "--timeout", "10s", "--registry-deadline", "200ms", resolveExample)
	if code != exitFailure || !strings.Contains(stderr, "the 200ms deadline for all registry lookups has passed") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("took %s", d)
	}
}
