package policyconfig_test

import (
	"strings"
	"testing"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/resolve/policyconfig"
)

func TestZeroAndNilConfig(t *testing.T) {
	configs := []struct {
		name string
		c    *policyconfig.Config
	}{
		{"zero", &policyconfig.Config{}},
		{"nil", nil},
	}
	flag := policyconfig.FlagOrigin("--policy cargo")
	for _, cfg := range configs {
		c := cfg.c
		tests := []struct {
			name  string
			check func(t *testing.T)
		}{
			{"Module", func(t *testing.T) {
				if got := c.Module("vpc"); got != (policyconfig.Choice{}) {
					t.Errorf("Module = %+v, want the zero Choice", got)
				}
			}},
			{"Provider", func(t *testing.T) {
				if got := c.Provider(tfaddr.NewProvider(tfaddr.DefaultProviderRegistryHost, "hashicorp", "aws")); got != (policyconfig.Choice{}) {
					t.Errorf("Provider = %+v, want the zero Choice", got)
				}
			}},
			{"Default", func(t *testing.T) {
				if got := c.Default(); got != (policyconfig.Choice{}) || got.Origin.String() != "built-in default" {
					t.Errorf("Default = %+v, want the zero Choice", got)
				}
			}},
			{"SetDefault", func(t *testing.T) {
				diags := c.SetDefault("cargo", flag)
				if len(diags) != 1 || !diags.HasErrors() || !strings.Contains(diags[0].Summary, "--policy cargo: ") ||
					!strings.Contains(diags[0].Detail, "no policy registry") {
					t.Errorf("SetDefault = %v, want one error about the missing registry", diags)
				}
				if got := c.Default(); got.Policy != nil {
					t.Errorf("Default after SetDefault = %+v, want no policy", got)
				}
			}},
			{"SetModule", func(t *testing.T) {
				if diags := c.SetModule("vpc", "cargo", flag); !diags.HasErrors() {
					t.Errorf("SetModule = %v, want an error", diags)
				}
			}},
			{"SetProvider", func(t *testing.T) {
				if diags := c.SetProvider("hashicorp/aws", "cargo", flag); !diags.HasErrors() {
					t.Errorf("SetProvider = %v, want an error", diags)
				}
			}},
		}
		for _, tt := range tests {
			t.Run(cfg.name+"/"+tt.name, tt.check)
		}
	}
}
