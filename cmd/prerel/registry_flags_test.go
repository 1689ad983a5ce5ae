package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

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
