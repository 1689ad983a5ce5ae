package web

import (
	"errors"
	"testing"

	"github.com/prerel/prerel/terraform/registry"
)

// TestServerHosts checks which Host headers a server answers, by where it
// listens: its own name and the loopback names at its port, and on all
// interfaces any IP address but no other name.
func TestServerHosts(t *testing.T) {
	tests := []struct {
		listen, header string
		want           bool
	}{
		{"127.0.0.1", "127.0.0.1:8080", true},
		{"127.0.0.1", "localhost:8080", true},
		{"127.0.0.1", "[::1]:8080", true},
		{"127.0.0.1", "localhost:8081", false},
		{"127.0.0.1", "evil.example:8080", false},
		{"box.lan", "box.lan.:8080", true},
		{"box.lan", "192.168.1.2:8080", false},
		{"0.0.0.0", "192.168.1.2:8080", true},
		{"0.0.0.0", "box.lan:8080", false},
		{"", "10.0.0.1:8080", true},
		{"127.0.0.1", "localhost", false}, // port 80
	}
	for _, tt := range tests {
		if got := ServerHosts(tt.listen, 8080)(tt.header); got != tt.want {
			t.Errorf("listening on %q, Host %q: %v, want %v", tt.listen, tt.header, got, tt.want)
		}
	}
	if !Everywhere("::") || Everywhere("127.0.0.1") || !Loopback("LocalHost") || Loopback("") {
		t.Error("Everywhere or Loopback is wrong")
	}
}

// TestLookups checks which registries a server's lookups may ask: the
// public ones, those allowed and those of the client's host URLs; every
// host with a base URL; an index takes no allowed host.
func TestLookups(t *testing.T) {
	opt, err := Lookups(&registry.Client{HostURLs: map[string]string{"mirror.corp": "https://mirror.corp/"}}, []string{"Registry.Example.com"})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]bool{"registry.terraform.io": true, "registry.opentofu.org": true, "registry.example.com": true, "mirror.corp": true, "other.example": false} {
		if got := opt.AllowRegistry(host); got != want {
			t.Errorf("AllowRegistry(%q) = %v, want %v", host, got, want)
		}
	}
	if opt, err := Lookups(&registry.Client{BaseURL: "https://all.corp/"}, nil); err != nil || opt.AllowRegistry != nil {
		t.Errorf("a base URL: %v, AllowRegistry set: %v", err, opt.AllowRegistry != nil)
	}
	if _, err := Lookups(&registry.Client{}, []string{"https://x/"}); !errors.Is(err, ErrNotRegistryHost) {
		t.Errorf("a URL as a host: %v", err)
	}
	if _, err := Lookups(&registry.Index{}, []string{"registry.example.com"}); err == nil {
		t.Error("an index with an allowed host: no error")
	}
}
