package policyconfig_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/policies"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/address"
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

module "eks.node_group" {
  policy = "lexical"
}
`

func TestParse(t *testing.T) {
	cfg, diags := policyconfig.Parse(testRegistry(t), []byte(good), "prerel.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
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
		{"module", "eks.node_group", "lexical", "prerel.hcl:21:12", true},
		{"module", "node_group", "cargo", "prerel.hcl:2:18", false},
		{"provider", "hashicorp/aws", "strict", "prerel.hcl:13:12", true},
		{"provider", "Registry.Terraform.io/HashiCorp/AWS", "strict", "prerel.hcl:13:12", true},
		{"provider", "aws", "strict", "prerel.hcl:13:12", true},
		{"provider", "hashicorp/helm", "lexical", "prerel.hcl:17:12", true},
		{"provider", "example.com/hashicorp/aws", "cargo", "prerel.hcl:2:18", false},
	}
	for _, tt := range tests {
		var c policyconfig.Choice
		if tt.kind == "module" {
			c = cfg.Module(tt.name)
		} else {
			c = cfg.Provider(mustProvider(t, tt.name))
		}
		if c.Policy.Name() != tt.policy || c.Origin.String() != tt.origin || c.Override != tt.override {
			t.Errorf("%s %q: %s from %s (override %v), want %s from %s (override %v)",
				tt.kind, tt.name, c.Policy.Name(), c.Origin, c.Override, tt.policy, tt.origin, tt.override)
		}
	}
	if got := cfg.Modules(); strings.Join(got, ",") != "eks,eks.node_group,vpc" {
		t.Errorf("Modules() = %q", got)
	}
	providers := []tfaddr.Provider{mustProvider(t, "hashicorp/aws"), mustProvider(t, "registry.terraform.io/hashicorp/helm")}
	if diags := cfg.CheckTargets([]string{"vpc", "eks", "eks.node_group", "s3"}, providers, nil); diags.HasErrors() {
		t.Errorf("CheckTargets: %v", diags)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"unknown policy", "default_policy = \"zzz\"\n",
			[]string{`prerel.hcl:1:18: Unknown policy "zzz"; Known policies: cargo, lexical, mine, strict.`}},
		{"mistyped policy", "default_policy = \"carg\"\n",
			[]string{`prerel.hcl:1:18: Unknown policy "carg"; Did you mean "cargo"? ('prerel policies' lists all 4.)`}},
		{"unknown policy in block", "module \"vpc\" {\n  policy = \"nope\"\n}\n",
			[]string{`prerel.hcl:2:12: Unknown policy "nope"`}},
		{"syntax", "module \"vpc\" {\n  policy = \n}\n",
			[]string{`prerel.hcl:2:12: Invalid expression`}},
		{"unknown argument", "default = \"strict\"\n",
			[]string{`prerel.hcl:1:1: Unsupported argument; An argument named "default" is not expected here.`}},
		{"unknown block", "modules \"vpc\" {}\n",
			[]string{`prerel.hcl:1:1: Unsupported block type`}},
		{"neither policy nor want", "module \"vpc\" {\n}\n",
			[]string{`prerel.hcl:1:1: Empty module block; A module block sets policy (the rule that selects a version), want (the exact version to install), min_age or allow_undated (a cooldown).`}},
		{"want not a string", "module \"vpc\" {\n  want = 2\n}\n",
			[]string{`prerel.hcl:2:10: Invalid want; want is the exact version to install, a string such as "2.0.0-beta.1".`}},
		{"want a constraint", "module \"vpc\" {\n  want = \">= 2.0\"\n}\n",
			[]string{`prerel.hcl:2:10: Invalid want; want is one exact version, such as "2.0.0-beta.1", not a constraint: ">= 2.0"`}},
		{"not a string", "module \"vpc\" {\n  policy = [\"strict\"]\n}\n",
			[]string{`prerel.hcl:2:12: Invalid policy; A policy is a string naming it, such as "strict"; this is a tuple.`}},
		{"a number", "default_policy = 5\n",
			[]string{`prerel.hcl:1:18: Invalid policy; A policy is a string naming it, such as "strict"; this is a number.`}},
		{"an object", "default_policy = {}\n",
			[]string{`prerel.hcl:1:18: Invalid policy; A policy is a string naming it, such as "strict"; this is an object.`}},
		{"null", "module \"vpc\" {\n  policy = null\n}\n",
			[]string{`prerel.hcl:2:12: Invalid policy; A policy is a string naming it, such as "strict"; this is null.`}},
		{"a reference", "default_policy = var.p\n",
			[]string{`prerel.hcl:1:18: Variables not allowed`}},
		{"missing label", "module {\n  policy = \"strict\"\n}\n",
			[]string{`prerel.hcl:1:8: Missing name for module`}},
		{"duplicate module", "module \"vpc\" {\n  policy = \"strict\"\n}\nmodule \"vpc\" {\n  policy = \"cargo\"\n}\n",
			[]string{`prerel.hcl:4:8: Duplicate module block; module "vpc" is already configured at prerel.hcl:1:8.`}},
		{"duplicate provider spelled differently", "provider \"hashicorp/aws\" {\n  policy = \"strict\"\n}\nprovider \"registry.terraform.io/HashiCorp/aws\" {\n  policy = \"cargo\"\n}\n",
			[]string{`prerel.hcl:4:10: Duplicate provider block; provider "registry.terraform.io/HashiCorp/aws" is already configured at prerel.hcl:1:10.`}},
		{"bad provider address", "provider \"a/b/c/d\" {\n  policy = \"strict\"\n}\n",
			[]string{`prerel.hcl:1:10: Invalid provider "a/b/c/d"; provider source "a/b/c/d": expected [HOST/]NAMESPACE/TYPE, but it has 4 parts separated by "/"`}},
		{"bad provider host", "provider \"bad host!/ns/thing\" {\n  policy = \"strict\"\n}\n",
			[]string{`prerel.hcl:1:10: Invalid provider "bad host!/ns/thing"; provider source "bad host!/ns/thing": invalid registry host name "bad host!": idna: disallowed rune U+0020`}},
		{"module address form", "module \"module.eks.module.node_group\" {\n  policy = \"strict\"\n}\n",
			[]string{`prerel.hcl:1:8: Invalid module "module.eks.module.node_group"; write the call path as call names joined by dots, as in "eks.node_group"`}},
		{"bad call name", "module \"eks..x\" {\n  policy = \"strict\"\n}\n",
			[]string{`prerel.hcl:1:8: Invalid module "eks..x"; "" is not a module call name`}},
		{"several mistakes, in file order", "module \"a\" {\n  policy = \"x\"\n}\ndefault_policy = \"y\"\n",
			[]string{`prerel.hcl:4:18: Unknown policy "y"`, `prerel.hcl:2:12: Unknown policy "x"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := policyconfig.Parse(testRegistry(t), []byte(tt.src), "prerel.hcl")
			if cfg != nil || !diags.HasErrors() {
				t.Fatalf("no error; config %+v", cfg)
			}
			got := lines(diags)
			if len(got) != len(tt.want) {
				t.Fatalf("diagnostics:\n%s\nwant %d: %q", strings.Join(got, "\n"), len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestCheckTargets(t *testing.T) {
	cfg, diags := policyconfig.Parse(testRegistry(t), []byte(good), "prerel.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if diags := cfg.SetModule("vcp", "strict", policyconfig.FlagOrigin("--module-policy vcp=strict")); diags.HasErrors() {
		t.Fatal(diags)
	}
	providers := []tfaddr.Provider{mustProvider(t, "hashicorp/aws"), mustProvider(t, "hashicorp/google")}
	got := strings.Join(lines(cfg.CheckTargets([]string{"vpc", "network", "eks.node_groups"}, providers, nil)), "\n")
	want := `prerel.hcl:8:8: No module call "eks" in the configuration; Its module calls: eks.node_groups, network, vpc.
prerel.hcl:20:8: No module call "eks.node_group" in the configuration; Did you mean "eks.node_groups"?
--module-policy vcp=strict: No module call "vcp" in the configuration; Did you mean "vpc"?
prerel.hcl:16:10: Provider "registry.terraform.io/hashicorp/helm" is not required by the configuration; Its required providers: hashicorp/aws, hashicorp/google.`
	if got != want {
		t.Errorf("CheckTargets:\n%s\nwant:\n%s", got, want)
	}
	got = strings.Join(lines(cfg.CheckTargets([]string{"eks", "vpc"}, providers, []string{"eks"})), "\n")
	if !strings.Contains(got, `prerel.hcl:20:8: warning: The policy for module "eks.node_group" is not checked; The module the call "eks" installs was not read`) {
		t.Errorf("CheckTargets below an unread module: %s", got)
	}
	got = strings.Join(lines(cfg.CheckTargets(nil, nil, nil)), "\n")
	if !strings.Contains(got, `No module call "eks" in the configuration; The configuration has no module calls.`) {
		t.Errorf("CheckTargets with no calls: %s", got)
	}
}

func TestFlagsOverrideTheFile(t *testing.T) {
	reg := testRegistry(t)
	cfg, diags := policyconfig.Parse(reg, []byte(good), "prerel.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	steps := []struct {
		apply func() hcl.Diagnostics
		err   string
	}{
		{func() hcl.Diagnostics { return cfg.SetDefault("strict", policyconfig.FlagOrigin("--policy strict")) }, ""},
		{func() hcl.Diagnostics {
			return cfg.SetModule("vpc", "cargo", policyconfig.FlagOrigin("--module-policy vpc=cargo"))
		}, ""},
		{func() hcl.Diagnostics {
			return cfg.SetProvider("hashicorp/aws", "mine", policyconfig.FlagOrigin("--provider-policy hashicorp/aws=mine"))
		}, ""},
		{func() hcl.Diagnostics { return cfg.SetDefault("nope", policyconfig.FlagOrigin("--policy nope")) }, `--policy nope: Unknown policy "nope"`},
		{func() hcl.Diagnostics {
			return cfg.SetModule("", "cargo", policyconfig.FlagOrigin("--module-policy =cargo"))
		}, `--module-policy =cargo: Invalid module ""`},
		{func() hcl.Diagnostics {
			return cfg.SetProvider("a/b/c/d", "cargo", policyconfig.FlagOrigin("--provider-policy a/b/c/d=cargo"))
		}, `--provider-policy a/b/c/d=cargo: Invalid provider "a/b/c/d"`},
	}
	for i, s := range steps {
		got := strings.Join(lines(s.apply()), "\n")
		if (got == "") != (s.err == "") || !strings.Contains(got, s.err) {
			t.Errorf("step %d: %q, want %q", i, got, s.err)
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
	if c := cfg.Provider(mustProvider(t, "aws")); c.Policy.Name() != "mine" {
		t.Errorf("aws: %s from %s", c.Policy.Name(), c.Origin)
	}
}

func TestNewAndLoad(t *testing.T) {
	reg := testRegistry(t)
	cfg, err := policyconfig.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Module("x"); c.Policy.Name() != policyconfig.FallbackPolicy || c.Origin.String() != "built-in default" || c.Override {
		t.Errorf("fallback: %+v", c)
	}
	if _, err := policyconfig.New(engine.NewRegistry()); err == nil {
		t.Error("New on a registry without strict: no error")
	}
	if _, err := policyconfig.New(nil); err == nil {
		t.Error("New(nil): no error")
	}
	path := filepath.Join(t.TempDir(), "prerel.hcl")
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := policyconfig.Load(reg, path)
	if diags.HasErrors() || cfg.File() != path || cfg.Module("vpc").Policy.Name() != "lexical" {
		t.Errorf("Load: %v %+v", diags, cfg)
	}
	missing := filepath.Join(t.TempDir(), "none.hcl")
	if _, diags := policyconfig.Load(reg, missing); !strings.Contains(strings.Join(lines(diags), ""), missing+": Cannot read the policy configuration") {
		t.Errorf("Load of a missing file: %v", diags)
	}
}

// mustProvider reads a provider address.
func mustProvider(t testing.TB, s string) tfaddr.Provider {
	t.Helper()
	p, err := address.ParseProvider(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// lines formats diagnostics one a line, as the command prints them.
func lines(diags hcl.Diagnostics) []string {
	out := make([]string, len(diags))
	for i, d := range diags {
		out[i] = diag.Format(d)
	}
	return out
}

func Example() {
	reg := engine.NewRegistry()
	for _, p := range policies.All() {
		_ = reg.Register(p)
	}
	cfg, diags := policyconfig.Parse(reg, []byte(`
default_policy = "strict"

module "vpc" {
  policy = "cargo"
}

module "eks.node_group" {
  policy = "lexical"
}
`), "prerel.hcl")
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	for _, name := range []string{"vpc", "eks", "eks.node_group"} {
		c := cfg.Module(name)
		fmt.Printf("%s: %s (%s)\n", name, c.Policy.Name(), c.Origin)
	}
	// Output:
	// vpc: cargo (prerel.hcl:5:12)
	// eks: strict (prerel.hcl:2:18)
	// eks.node_group: lexical (prerel.hcl:9:12)
}

// TestWant reads want, alone (the default's policy stays) and with a
// policy, and lets --want replace the file's.
func TestWant(t *testing.T) {
	src := `default_policy = "cargo"

module "db" {
  want = "2.0.0-beta.1"
}

module "app" {
  policy = "lexical"
  want   = "v3.0.0-rc.1"
}
`
	cfg, diags := policyconfig.Parse(testRegistry(t), []byte(src), "prerel.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if diags := cfg.SetProviderWant("hashicorp/aws", "6.0.0-beta1", policyconfig.FlagOrigin("--want hashicorp/aws=6.0.0-beta1")); diags.HasErrors() {
		t.Fatal(diags)
	}
	if diags := cfg.SetModuleWant("app", "3.0.0", policyconfig.FlagOrigin("--want app=3.0.0")); diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, tt := range []struct {
		c                            policyconfig.Choice
		policy, origin, want, wantAt string
	}{
		{cfg.Module("db"), "cargo", "prerel.hcl:1:18", "2.0.0-beta.1", "prerel.hcl:4:10"},
		{cfg.Module("app"), "lexical", "prerel.hcl:8:12", "3.0.0", "--want app=3.0.0"},
		{cfg.Module("other"), "cargo", "prerel.hcl:1:18", "", "built-in default"},
		{cfg.Provider(mustProvider(t, "aws")), "cargo", "prerel.hcl:1:18", "6.0.0-beta1", "--want hashicorp/aws=6.0.0-beta1"},
	} {
		if tt.c.Policy.Name() != tt.policy || tt.c.Origin.String() != tt.origin || tt.c.Want != tt.want || tt.c.WantOrigin.String() != tt.wantAt {
			t.Errorf("%s from %s, want %q from %s; want %s from %s, %q from %s",
				tt.c.Policy.Name(), tt.c.Origin, tt.c.Want, tt.c.WantOrigin, tt.policy, tt.origin, tt.want, tt.wantAt)
		}
	}
	if diags := cfg.SetModuleWant("db", "~> 2.0", policyconfig.FlagOrigin("--want db=~> 2.0")); !diags.HasErrors() {
		t.Error("--want with a constraint: no error")
	}
}
