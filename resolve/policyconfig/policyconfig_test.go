package moduleconfig_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
	"github.com/prerel/prerel/policies/moduleconfig"
)

// testRegistry holds strict, lexical and cargo, plus a user's own policy.
func testRegistry(t testing.TB) *engine.Registry {
	t.Helper()
	reg := engine.NewRegistry()
	for _, p := range []engine.Policy{policies.Strict{}, policies.Lexical{}, policies.Cargo{}, mine{}} {
		if err := reg.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// mine is a user-registered policy: it admits everything.
type mine struct{}

func (mine) Name() string { return "mine" }
func (mine) Rule() string { return "everything" }
func (mine) Compile(string) (engine.Matcher, error) {
	return matchAll{}, nil
}

type matchAll struct{}

func (matchAll) Match(string) engine.Result { return engine.Allowed("mine") }

const good = `# Policies per module call and provider.
default_policy = "cargo"

module "vpc" {
  policy = "lexical"
}

module "eks" {
  policy = "mine"
}

provider "hashicorp/aws" {
  policy = "strict"
}

provider "registry.terraform.io/hashicorp/helm" {
  policy = "lexical"
}
`

func TestParse(t *testing.T) {
	cfg, err := moduleconfig.Parse(testRegistry(t), []byte(good), "prerel.hcl")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		kind, name string
		policy     string
		origin     string
		override   bool
	}{
		{"module", "vpc", "lexical", "prerel.hcl:5:12", true},
		{"module", "eks", "mine", "prerel.hcl:9:12", true},
		{"module", "other", "cargo", "prerel.hcl:2:18", false},
		{"provider", "hashicorp/aws", "strict", "prerel.hcl:13:12", true},
		{"provider", "Registry.Terraform.io/HashiCorp/AWS", "strict", "prerel.hcl:13:12", true},
		{"provider", "aws", "strict", "prerel.hcl:13:12", true},
		{"provider", "hashicorp/helm", "lexical", "prerel.hcl:17:12", true},
		{"provider", "example.com/hashicorp/aws", "cargo", "prerel.hcl:2:18", false},
		{"provider", "not//valid", "cargo", "prerel.hcl:2:18", false},
	}
	for _, tt := range tests {
		var c moduleconfig.Choice
		if tt.kind == "module" {
			c = cfg.Module(tt.name)
		} else {
			c = cfg.Provider(tt.name)
		}
		if c.Policy.Name() != tt.policy || c.Origin.String() != tt.origin || c.Override != tt.override {
			t.Errorf("%s %q: %s from %s (override %v), want %s from %s (override %v)",
				tt.kind, tt.name, c.Policy.Name(), c.Origin, c.Override, tt.policy, tt.origin, tt.override)
		}
	}
	if got := cfg.Modules(); strings.Join(got, ",") != "eks,vpc" {
		t.Errorf("Modules() = %q", got)
	}
	if got := cfg.Providers(); strings.Join(got, ",") != "registry.terraform.io/hashicorp/aws,registry.terraform.io/hashicorp/helm" {
		t.Errorf("Providers() = %q", got)
	}
	if err := cfg.CheckTargets([]string{"vpc", "eks", "s3"}, []string{"hashicorp/aws", "registry.terraform.io/hashicorp/helm"}); err != nil {
		t.Errorf("CheckTargets: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"unknown policy", "default_policy = \"carg\"\n",
			[]string{`prerel.hcl:1:18: unknown policy "carg" (known: cargo, lexical, mine, strict)`}},
		{"unknown policy in block", "module \"vpc\" {\n  policy = \"nope\"\n}\n",
			[]string{`prerel.hcl:2:12: unknown policy "nope"`}},
		{"syntax", "module \"vpc\" {\n  policy = \n}\n",
			[]string{`prerel.hcl:2:12: Invalid expression`}},
		{"unknown argument", "default = \"strict\"\n",
			[]string{`prerel.hcl:1:1: Unsupported argument; An argument named "default" is not expected here.`}},
		{"unknown block", "modules \"vpc\" {}\n",
			[]string{`prerel.hcl:1:1: Unsupported block type`}},
		{"missing policy", "module \"vpc\" {\n}\n",
			[]string{`prerel.hcl:1:14: Missing required argument; The argument "policy" is required`}},
		{"not a string", "module \"vpc\" {\n  policy = [\"strict\"]\n}\n",
			[]string{`prerel.hcl:2:12: Unsuitable value type`}},
		{"a reference", "default_policy = var.p\n",
			[]string{`prerel.hcl:1:18: Variables not allowed`}},
		{"missing label", "module {\n  policy = \"strict\"\n}\n",
			[]string{`prerel.hcl:1:8: Missing name for module`}},
		{"duplicate module", "module \"vpc\" {\n  policy = \"strict\"\n}\nmodule \"vpc\" {\n  policy = \"cargo\"\n}\n",
			[]string{`prerel.hcl:4:8: module "vpc" is already configured at prerel.hcl:1:8`}},
		{"duplicate provider spelled differently", "provider \"hashicorp/aws\" {\n  policy = \"strict\"\n}\nprovider \"registry.terraform.io/HashiCorp/aws\" {\n  policy = \"cargo\"\n}\n",
			[]string{`prerel.hcl:4:10: provider "registry.terraform.io/HashiCorp/aws" is already configured at prerel.hcl:1:10`}},
		{"bad provider address", "provider \"a/b/c/d\" {\n  policy = \"strict\"\n}\n",
			[]string{`prerel.hcl:1:10: provider source "a/b/c/d": expected [HOST/]NAMESPACE/TYPE`}},
		{"several mistakes, in file order", "module \"a\" {\n  policy = \"x\"\n}\ndefault_policy = \"y\"\n",
			[]string{`prerel.hcl:2:12: unknown policy "x"`, `prerel.hcl:4:18: unknown policy "y"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := moduleconfig.Parse(testRegistry(t), []byte(tt.src), "prerel.hcl")
			if err == nil {
				t.Fatalf("no error; config %+v", cfg)
			}
			errs, ok := err.(moduleconfig.Errors)
			if !ok {
				t.Fatalf("error %T %v, want moduleconfig.Errors", err, err)
			}
			if len(errs) != len(tt.want) {
				t.Fatalf("errors:\n%v\nwant %d: %q", err, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(errs[i].Error(), w) {
					t.Errorf("error %d = %q, want it to contain %q", i, errs[i], w)
				}
			}
		})
	}
}

func TestCheckTargets(t *testing.T) {
	cfg, err := moduleconfig.Parse(testRegistry(t), []byte(good), "prerel.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.SetModule("vcp", "strict", moduleconfig.FlagOrigin("--module-policy vcp=strict")); err != nil {
		t.Fatal(err)
	}
	err = cfg.CheckTargets([]string{"vpc", "network"}, []string{"hashicorp/aws", "hashicorp/google"})
	want := `prerel.hcl:8:8: module "eks" is not called by the configuration (module calls: network, vpc)
prerel.hcl:16:10: provider "registry.terraform.io/hashicorp/helm" is not required by the configuration (required providers: registry.terraform.io/hashicorp/aws, registry.terraform.io/hashicorp/google)
--module-policy vcp=strict: module "vcp" is not called by the configuration; did you mean "vpc"?`
	if err == nil || err.Error() != want {
		t.Errorf("CheckTargets:\n%v\nwant:\n%s", err, want)
	}
	err = cfg.CheckTargets(nil, nil)
	if err == nil || !strings.Contains(err.Error(), `module "eks" is not called by the configuration (it has no module calls)`) {
		t.Errorf("CheckTargets with no calls: %v", err)
	}
}

func TestFlagsOverrideTheFile(t *testing.T) {
	reg := testRegistry(t)
	cfg, err := moduleconfig.Parse(reg, []byte(good), "prerel.hcl")
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		apply func() error
		err   string
	}{
		{func() error { return cfg.SetDefault("strict", moduleconfig.FlagOrigin("--policy strict")) }, ""},
		{func() error {
			return cfg.SetModule("vpc", "cargo", moduleconfig.FlagOrigin("--module-policy vpc=cargo"))
		}, ""},
		{func() error {
			return cfg.SetProvider("hashicorp/aws", "mine", moduleconfig.FlagOrigin("--provider-policy hashicorp/aws=mine"))
		}, ""},
		{func() error { return cfg.SetDefault("nope", moduleconfig.FlagOrigin("--policy nope")) }, `--policy nope: unknown policy "nope"`},
		{func() error { return cfg.SetModule("", "cargo", moduleconfig.FlagOrigin("--module-policy =cargo")) }, "--module-policy =cargo: empty module name"},
		{func() error { return cfg.SetProvider("a/b/c/d", "cargo", moduleconfig.FlagOrigin("--provider-policy")) }, "expected [HOST/]NAMESPACE/TYPE"},
	}
	for i, s := range steps {
		err := s.apply()
		if (err == nil) != (s.err == "") || err != nil && !strings.Contains(err.Error(), s.err) {
			t.Errorf("step %d: error %v, want %q", i, err, s.err)
		}
	}
	if c := cfg.Default(); c.Policy.Name() != "strict" || c.Origin.String() != "--policy strict" {
		t.Errorf("default: %s from %s", c.Policy.Name(), c.Origin)
	}
	if c := cfg.Module("vpc"); c.Policy.Name() != "cargo" || c.Origin.Flag == "" {
		t.Errorf("vpc: %s from %s", c.Policy.Name(), c.Origin)
	}
	if c := cfg.Module("eks"); c.Policy.Name() != "mine" {
		t.Errorf("eks: %s from %s", c.Policy.Name(), c.Origin)
	}
	if c := cfg.Provider("aws"); c.Policy.Name() != "mine" {
		t.Errorf("aws: %s from %s", c.Policy.Name(), c.Origin)
	}
}

func TestNewAndLoad(t *testing.T) {
	reg := testRegistry(t)
	cfg, err := moduleconfig.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Module("x"); c.Policy.Name() != moduleconfig.FallbackPolicy || c.Origin.String() != "built-in default" || c.Override {
		t.Errorf("fallback: %+v", c)
	}
	if _, err := moduleconfig.New(engine.NewRegistry()); err == nil {
		t.Error("New on a registry without strict: no error")
	}
	if _, err := moduleconfig.New(nil); err == nil {
		t.Error("New(nil): no error")
	}
	path := filepath.Join(t.TempDir(), "prerel.hcl")
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err = moduleconfig.Load(reg, path)
	if err != nil || cfg.File() != path || cfg.Module("vpc").Policy.Name() != "lexical" {
		t.Errorf("Load: %v %+v", err, cfg)
	}
	if _, err := moduleconfig.Load(reg, filepath.Join(t.TempDir(), "none.hcl")); !os.IsNotExist(err) {
		t.Errorf("Load of a missing file: %v", err)
	}
}

func TestNormalizeProviderSource(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"aws", "registry.terraform.io/hashicorp/aws"},
		{"HashiCorp/AWS", "registry.terraform.io/hashicorp/aws"},
		{"example.com/corp/thing", "example.com/corp/thing"},
		{"a/b/c/d", ""},
		{"a//b", ""},
		{"", ""},
		{"a b/c", ""},
	} {
		got, err := moduleconfig.NormalizeProviderSource(tt.in)
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("NormalizeProviderSource(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func Example() {
	reg := engine.NewRegistry()
	for _, p := range policies.All() {
		_ = reg.Register(p)
	}
	cfg, err := moduleconfig.Parse(reg, []byte(`
default_policy = "strict"

module "vpc" {
  policy = "cargo"
}
`), "prerel.hcl")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"vpc", "eks"} {
		c := cfg.Module(name)
		fmt.Printf("%s: %s (%s)\n", name, c.Policy.Name(), c.Origin)
	}
	// Output:
	// vpc: cargo (prerel.hcl:5:12)
	// eks: strict (prerel.hcl:2:18)
}
