package registry

import (
	"context"
	"errors"
	"testing"

	tfaddr "github.com/hashicorp/terraform-registry-address"
)

func TestNilAndZeroClientString(t *testing.T) {
	tests := []struct {
		name string
		c    *Client
		none bool // described as no registry
	}{
		{"nil", nil, true},
		{"zero", &Client{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.c.String()
			if (got == "registry (none)") != tt.none || got == "" {
				t.Errorf("String() = %q, want %q: %v", got, "registry (none)", tt.none)
			}
		})
	}
}

// The methods of a nil Client or Index return an error, not a panic.
func TestNilClientAndIndexReturnErrors(t *testing.T) {
	ctx := context.Background()
	mod, err := tfaddr.ParseModuleSource("hashicorp/consul/aws")
	if err != nil {
		t.Fatal(err)
	}
	prov := tfaddr.MustParseProviderSource("hashicorp/aws")
	var c *Client
	if _, err := c.Discover(ctx, "registry.terraform.io"); !errors.Is(err, ErrNilClient) {
		t.Errorf("nil Client: Discover: %v", err)
	}
	if _, err := c.ModuleVersions(ctx, mod.Package); !errors.Is(err, ErrNilClient) {
		t.Errorf("nil Client: ModuleVersions: %v", err)
	}
	if _, err := c.ProviderVersions(ctx, prov); !errors.Is(err, ErrNilClient) {
		t.Errorf("nil Client: ProviderVersions: %v", err)
	}
	if got := c.DiscoveryURL("registry.terraform.io"); got != "" {
		t.Errorf("nil Client: DiscoveryURL = %q", got)
	}
	var x *Index
	if _, err := x.ModuleVersions(ctx, mod.Package); !errors.Is(err, ErrNilIndex) {
		t.Errorf("nil Index: ModuleVersions: %v", err)
	}
	if _, err := x.ProviderVersions(ctx, prov); !errors.Is(err, ErrNilIndex) {
		t.Errorf("nil Index: ProviderVersions: %v", err)
	}
	if x.String() != "index (none)" || x.Modules() != nil || x.Providers() != nil {
		t.Errorf("nil Index: %q, %v, %v", x.String(), x.Modules(), x.Providers())
	}
}
