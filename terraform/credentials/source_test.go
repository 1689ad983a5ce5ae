package credentials

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/terraform/registry"
)

// TestNewSource checks the source of versions each setting gives: the
// index, or a client with the environment's tokens and, when asked, the
// CLI configuration's host blocks and provider installation.
func TestNewSource(t *testing.T) {
	home := t.TempDir()
	write(t, home, ".terraformrc", `
credentials "reg.example" { token = "file-token" }
host "reg.example" {
  services = { "modules.v1" = "https://main.example/m/" }
}
host "bad host!" {
  services = {}
}
`)
	environ := func() []string { return []string{"HOME=" + home, "TF_TOKEN_env_example=env-token"} }
	index := write(t, home, "index.json", `{"modules": {}, "providers": {}}`)
	tests := []struct {
		name    string
		opt     SourceOptions
		kind    string // "index", "client" or "installation"
		retries int    // of the client
		tokens  string // the hosts with a token
		blocks  bool   // the client has reg.example's host block
		diags   int
		err     string
	}{
		{name: "the index", opt: SourceOptions{Index: index, Environ: environ, CLIConfig: true}, kind: "index"},
		{name: "an index not there", opt: SourceOptions{Index: home + "/none.json"}, err: "none.json"},
		{name: "no environment", opt: SourceOptions{Retries: 3}, kind: "client", retries: 3},
		{name: "no retries", opt: SourceOptions{Environ: environ}, kind: "client", retries: -1, tokens: "env.example reg.example"},
		{name: "the CLI configuration", opt: SourceOptions{Environ: environ, CLIConfig: true, Retries: 2}, kind: "installation",
			retries: 2, tokens: "env.example reg.example", blocks: true, diags: 1},
		{name: "a base URL", opt: SourceOptions{Environ: environ, CLIConfig: true, BaseURL: "https://mirror.example/"}, kind: "client",
			retries: -1, tokens: "env.example reg.example"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, diags, err := NewSource(tt.opt)
			if tt.err != "" || err != nil {
				if err == nil || tt.err == "" || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if len(diags) != tt.diags {
				t.Errorf("%d diagnostics, want %d: %v", len(diags), tt.diags, diags)
			}
			var c *registry.Client
			switch s := src.(type) {
			case *registry.Index:
				if tt.kind != "index" {
					t.Fatalf("an index, want a %s", tt.kind)
				}
				return
			case *registry.Client:
				if tt.kind != "client" {
					t.Fatalf("a client, want a %s", tt.kind)
				}
				c = s
			case *registry.ProviderInstallation:
				if tt.kind != "installation" {
					t.Fatalf("a provider installation, want a %s", tt.kind)
				}
				c = s.Registry
			default:
				t.Fatalf("a %T", src)
			}
			if c.Retries != tt.retries || c.BaseURL != tt.opt.BaseURL {
				t.Errorf("retries %d, base URL %q; want %d, %q", c.Retries, c.BaseURL, tt.retries, tt.opt.BaseURL)
			}
			var tokens []string
			for _, h := range []string{"env.example", "reg.example"} {
				if c.Credentials != nil {
					if _, _, ok := c.Credentials.Token(h); ok {
						tokens = append(tokens, h)
					}
				}
			}
			if got := strings.Join(tokens, " "); got != tt.tokens {
				t.Errorf("tokens for %q, want %q", got, tt.tokens)
			}
			if _, ok := c.HostBlocks["reg.example"]; ok != tt.blocks {
				t.Errorf("host block of reg.example: %v, want %v", ok, tt.blocks)
			}
		})
	}
}
