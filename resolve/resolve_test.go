package resolve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/catalogue/cataloguetest"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/registry"
)

// testRegistry holds today's installers and every policy the tests name,
// a fixed list: NoMatch draws the policies that select a version from it,
// and a rule added to the catalogue changes no golden file.
var testRegistry = cataloguetest.Registry(
	"terraform-module", "opentofu-module", "apparentlymart", // today's
	"strict", "lexical", "cargo", "linear", "ga-bound", "fallback", "core-only",
	"hashicorp", "apparentlymart-exact", "masterminds-pre",
	"renovate", "dependabot", "terraform-module-versions", "terraform-ls", "tfupdate", "opentofu-engine",
)

func mustPolicies(t *testing.T, names ...string) []engine.Policy {
	t.Helper()
	ps, err := testRegistry.Resolve(names)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		return nil
	}
	return ps
}

func exampleConfig(t *testing.T) *policyconfig.Config {
	t.Helper()
	cfg, err := policyconfig.Load(testRegistry, filepath.Join(exampleDir, "prerel.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func exampleIndex(t *testing.T) *registry.Index {
	t.Helper()
	x, err := registry.LoadIndex(filepath.Join(exampleDir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		extra []string
		setup func(*policyconfig.Config) hcl.Diagnostics
	}{
		{name: "example"},
		{name: "example-extra", extra: []string{"hashicorp", "masterminds-pre", "lexical"}},
		{name: "example-unsatisfied", setup: func(c *policyconfig.Config) hcl.Diagnostics {
			return c.SetModule("consul_next", "terraform-module", policyconfig.FlagOrigin("--module-policy consul_next=terraform-module"))
		}},
	}
	renderers := []struct {
		ext    string
		render func(w *bytes.Buffer, r *resolve.Report) error
	}{
		{"txt", func(w *bytes.Buffer, r *resolve.Report) error { return resolve.Render(w, report.Text, r, cliOptions) }},
		{"md", func(w *bytes.Buffer, r *resolve.Report) error {
			return resolve.Render(w, report.Markdown, r, cliOptions)
		}},
		{"json", func(w *bytes.Buffer, r *resolve.Report) error { return resolve.Render(w, report.JSON, r, cliOptions) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := exampleConfig(t)
			if tt.setup != nil {
				if diags := tt.setup(cfg); diags.HasErrors() {
					t.Fatal(diags)
				}
			}
			r, err := runResolve(context.Background(), resolve.Options{
				Dir: exampleDir, Config: cfg, Versions: exampleIndex(t), Policies: testRegistry, Extra: mustPolicies(t, tt.extra...),
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, rd := range renderers {
				var b bytes.Buffer
				if err := rd.render(&b, r); err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", "golden", tt.name+"."+rd.ext), b.Bytes())
			}
		})
	}
}

// serveIndex serves the bodies of an index file as a registry on a
// loopback test server, with relative service URLs.
func serveIndex(t *testing.T, path string) *httptest.Server {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var x map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &x); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"modules.v1": "/api/modules/v1/", "providers.v1": "/api/providers/v1/"}`)
	})
	for section, prefix := range map[string]string{"modules": "/api/modules/v1/", "providers": "/api/providers/v1/"} {
		for key, body := range x[section] {
			// Terraform sends provider addresses in lower case.
			mux.HandleFunc(strings.ToLower(prefix+key+"/versions"), func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write(body)
			})
		}
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// comparable returns the report's JSON without the fields that say where
// versions came from.
func comparable(t *testing.T, r *resolve.Report) string {
	t.Helper()
	c := *r
	c.VersionsFrom = ""
	c.Items = append([]resolve.Item(nil), r.Items...)
	for i := range c.Items {
		c.Items[i].From = ""
	}
	var b bytes.Buffer
	if err := resolve.Render(&b, report.JSON, &c, cliOptions); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRegistryOverHTTPMatchesIndex(t *testing.T) {
	srv := serveIndex(t, filepath.Join(exampleDir, "index.json"))
	opts := resolve.Options{Dir: exampleDir, Config: exampleConfig(t), Policies: testRegistry, Extra: mustPolicies(t, "lexical", "hashicorp")}
	opts.Versions = exampleIndex(t)
	fromIndex, err := runResolve(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Versions = &registry.Client{BaseURL: srv.URL, Timeout: 5 * time.Second}
	fromRegistry, err := runResolve(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := comparable(t, fromIndex), comparable(t, fromRegistry); a != b {
		t.Errorf("registry and index disagree:\n--- index\n%s\n--- registry\n%s", a, b)
	}
	if got := fromRegistry.Items[0].From; !strings.HasPrefix(got, srv.URL+"/api/modules/v1/hashicorp/consul-k8s/kubernetes/versions") {
		t.Errorf("From = %q", got)
	}
}

// writeDir writes files into a new temporary directory.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func moduleBody(versions ...string) string {
	items := make([]string, len(versions))
	for i, v := range versions {
		items[i] = fmt.Sprintf(`{"version": %q}`, v)
	}
	return `{"modules": [{"versions": [` + strings.Join(items, ", ") + `]}]}`
}

func providerBody(versions ...string) string {
	items := make([]string, len(versions))
	for i, v := range versions {
		items[i] = fmt.Sprintf(`{"version": %q, "protocols": ["5.0"], "platforms": [{"os": "linux", "arch": "amd64"}]}`, v)
	}
	return `{"versions": [` + strings.Join(items, ", ") + `]}`
}

// TestUnseenConfigurations resolves configurations written here, each
// with its own index: every item gets its chosen policy's selection and
// today's Terraform's and OpenTofu's.
func TestUnseenConfigurations(t *testing.T) {
	appVersions := []string{"0.9.0", "1.0.0", "1.2.0-rc.1", "1.2.0", "1.2.5", "1.3.0", "2.0.0-beta.1", "2.0.0-beta.2"}
	index := `{"modules": {
  "corp/app/aws": ` + moduleBody(appVersions...) + `,
  "registry.example.com/corp/db/aws": ` + moduleBody("v1.0.0", "v1.1.0-alpha.1") + `
}, "providers": {
  "corp/thing": ` + providerBody("1.0.0", "1.1.0", "2.0.0-rc.1") + `,
  "hashicorp/random": ` + providerBody("3.5.0", "3.6.0", "4.0.0-alpha1") + `
}}`
	type want struct {
		name, policy       string
		selected, tf, tofu string // "" for none
		status             string
	}
	tests := []struct {
		name  string
		tf    string
		cfg   string
		items []want
	}{
		{
			name: "prerelease lower bound",
			tf: `module "app" {
  source  = "corp/app/aws"
  version = ">= 2.0.0-beta.1"
}`,
			cfg:   `default_policy = "cargo"`,
			items: []want{{"app", "cargo", "2.0.0-beta.2", "", "", "ok"}},
		},
		{
			name: "pessimistic rc",
			tf: `module "app" {
  source  = "corp/app/aws"
  version = "~> 1.2.0-rc.1"
}`,
			cfg:   `module "app" { policy = "strict" }`,
			items: []want{{"app", "strict", "1.2.5", "", "", "ok"}},
		},
		{
			name: "exact pin next to a release bound",
			tf: `module "app" {
  source  = "corp/app/aws"
  version = "2.0.0-beta.1, >= 1.0.0"
}`,
			items: []want{{"app", "strict", "2.0.0-beta.1", "", "", "ok"}},
		},
		{
			name: "nothing admitted",
			tf: `module "app" {
  source  = "corp/app/aws"
  version = ">= 3.0.0"
}`,
			items: []want{{"app", "strict", "", "", "", "unsatisfied"}},
		},
		{
			name: "no version argument, other host, tofu file",
			tf: `module "app" {
  source = "corp/app/aws"
}`,
			cfg: `default_policy = "lexical"`,
			items: []want{
				{"app", "lexical", "2.0.0-beta.2", "1.3.0", "1.3.0", "ok"},
				{"db", "lexical", "v1.1.0-alpha.1", "v1.0.0", "v1.0.0", "ok"},
			},
		},
		{
			name: "providers, implied and explicit",
			tf: `terraform {
  required_providers {
    thing = {
      source  = "corp/thing"
      version = ">= 1.0.0, < 2.0.0"
    }
  }
}

resource "random_id" "x" {}`,
			cfg: `provider "corp/thing" { policy = "cargo" }
provider "hashicorp/random" { policy = "lexical" }`,
			items: []want{
				// lexical admits every prerelease when there is no constraint.
				{"random", "lexical", "4.0.0-alpha1", "3.6.0", "3.6.0", "ok"},
				{"thing", "cargo", "1.1.0", "1.1.0", "1.1.0", "ok"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"main.tf": tt.tf, "index.json": index}
			if tt.cfg != "" {
				files["prerel.hcl"] = tt.cfg
			}
			if strings.Contains(tt.name, "tofu") {
				files["db.tofu"] = `module "db" {
  source = "registry.example.com/corp/db/aws"
}`
			}
			dir := writeDir(t, files)
			cfg := loadConfig(t, dir)
			x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: testRegistry})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Items) != len(tt.items) {
				t.Fatalf("%d items, want %d: %+v", len(r.Items), len(tt.items), r.Items)
			}
			str := func(p *string) string {
				if p == nil {
					return ""
				}
				return *p
			}
			for i, w := range tt.items {
				it := r.Items[i]
				got := want{it.Name, it.Policy, str(it.Selected), str(it.ByPolicy[it.TerraformPolicy]), str(it.ByPolicy[it.OpenTofuPolicy]), string(it.Status)}
				if got != w {
					t.Errorf("item %d = %+v, want %+v (problem %q)", i, got, w, it.Problem)
				}
				if it.Changed() != (w.selected != w.tf || w.selected != w.tofu) {
					t.Errorf("item %d: Changed() = %v", i, it.Changed())
				}
			}
		})
	}
}

func TestUnsatisfiedNamesTheNewestVersion(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"main.tf": `module "app" {
  source  = "corp/app/aws"
  version = "~> 9.0"
}`,
		"index.json": `{"modules": {"corp/app/aws": ` + moduleBody("1.0.0", "2.0.0", "2.1.0-rc.1", "bad") + `}}`,
	})
	cfg := loadConfig(t, t.TempDir())
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	it := r.Unsatisfied()
	want := `no available version of module corp/app/aws matches the constraint "~> 9.0" under policy strict; the newest available version is 2.1.0-rc.1`
	if len(it) != 1 || it[0].Problem != want || it[0].Pos != "main.tf:3:13" {
		t.Fatalf("unsatisfied = %+v\nwant problem %q", it, want)
	}
	// "bad" is listed, no policy can read it: reported, not dropped.
	if len(it[0].Unreadable) != 1 || it[0].Unreadable[0].Version != "bad" || len(it[0].Unreadable[0].Policies) != 3 {
		t.Errorf("unreadable = %+v", it[0].Unreadable)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], `listed version "bad" is not readable by any policy shown`) {
		t.Errorf("warnings = %q", r.Warnings)
	}
}

func TestLookupErrorsAreReported(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"main.tf": `module "app" {
  source  = "corp/app/aws"
  version = "1.0.0"
}
module "gone" {
  source  = "corp/gone/aws"
  version = "1.0.0"
}`,
		"index.json": `{"modules": {"corp/app/aws": ` + moduleBody("1.0.0") + `}}`,
	})
	cfg := loadConfig(t, t.TempDir())
	x, _ := registry.LoadIndex(filepath.Join(dir, "index.json"))
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	bad := r.Errors()
	if len(bad) != 1 || bad[0].Name != "gone" || !strings.Contains(bad[0].Problem, "module corp/gone/aws: not found in") {
		t.Fatalf("errors = %+v", bad)
	}
	if bad[0].ByPolicy["strict"] != nil || len(bad[0].ByPolicy) != 3 {
		t.Errorf("by_policy of an error item = %v", bad[0].ByPolicy)
	}
}

func TestConfigErrors(t *testing.T) {
	okModule := `module "app" {
  source  = "corp/app/aws"
  version = "1.0.0"
}
`
	tests := []struct {
		name  string
		files map[string]string
		setup func(*policyconfig.Config) hcl.Diagnostics
		want  []string
	}{
		{
			name:  "syntax error in the configuration",
			files: map[string]string{"main.tf": "module \"app\" {\n  source = \n}\n"},
			want:  []string{"main.tf:2:12: Invalid expression"},
		},
		{
			name:  "invalid module constraint",
			files: map[string]string{"main.tf": "module \"app\" {\n  source  = \"corp/app/aws\"\n  version = \">= bananas\"\n}\n"},
			want:  []string{`main.tf:3:13: Invalid version constraint; module "app": constraint ">= bananas": column 4: expected a version, found "bananas"`},
		},
		{
			name: "invalid provider source",
			files: map[string]string{"main.tf": `terraform {
  required_providers {
    x = { source = "a/b/c/d" }
  }
}`},
			want: []string{`main.tf:3:5: Invalid provider source; provider source "a/b/c/d": expected [HOST/]NAMESPACE/TYPE, but it has 4 parts`},
		},
		{
			name:  "override for a module not called",
			files: map[string]string{"main.tf": okModule, "prerel.hcl": "module \"ap\" {\n  policy = \"cargo\"\n}\n"},
			want:  []string{`prerel.hcl:1:8: No module call "ap" in the configuration; Did you mean "app"?`},
		},
		{
			name:  "flag override for a module not called",
			files: map[string]string{"main.tf": okModule},
			setup: func(c *policyconfig.Config) hcl.Diagnostics {
				return c.SetModule("nope", "cargo", policyconfig.FlagOrigin("--module-policy nope=cargo"))
			},
			want: []string{`--module-policy nope=cargo: No module call "nope" in the configuration; Its module calls: app.`},
		},
		{
			name: "mistakes in several files, at once",
			files: map[string]string{
				"main.tf":             "module \"app\" {\n  source = \n}\nmodule \"child\" {\n  source = \"./child\"\n}\n",
				"child/main.tf":       "module \"x\" {\n  source  = \"corp/x/aws\"\n  version = \">= bananas\"\n}\n",
				".terraform.lock.hcl": "provider \"registry.terraform.io/hashicorp/aws\" {\n}\n",
			},
			want: []string{"main.tf:2:12: Invalid expression", `child/main.tf:3:13: Invalid version constraint; module "child.x"`, ".terraform.lock.hcl:1:48: Missing required argument"},
		},
		{
			name:  "bad lock file",
			files: map[string]string{"main.tf": okModule, ".terraform.lock.hcl": "provider \"registry.terraform.io/hashicorp/aws\" {\n  verison = \"1.0.0\"\n}\n"},
			want:  []string{`.terraform.lock.hcl:1:48: Missing required argument`, `.terraform.lock.hcl:2:3: Unsupported argument`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeDir(t, tt.files)
			cfg := loadConfig(t, dir)
			if tt.setup != nil {
				if diags := tt.setup(cfg); diags.HasErrors() {
					t.Fatal(diags)
				}
			}
			x, _ := registry.ParseIndex([]byte(`{}`), "index.json")
			_, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: testRegistry})
			var diags hcl.Diagnostics
			if !errors.As(err, &diags) {
				t.Fatalf("error %T %v, want hcl.Diagnostics", err, err)
			}
			if len(diags) != len(tt.want) {
				t.Fatalf("diagnostics:\n%s\nwant %d", err, len(tt.want))
			}
			for i, w := range tt.want {
				if got := diag.Format(diags[i]); !strings.Contains(got, w) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, got, w)
				}
			}
		})
	}
}

// loadConfig reads dir/prerel.hcl, or starts from no settings.
func loadConfig(t *testing.T, dir string) *policyconfig.Config {
	t.Helper()
	path := filepath.Join(dir, "prerel.hcl")
	if _, err := os.Stat(path); err != nil {
		cfg, err := policyconfig.New(testRegistry)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	cfg, diags := policyconfig.Load(testRegistry, path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg
}

func TestRunNeedsTodaysSelectors(t *testing.T) {
	reg := engine.NewRegistry()
	for _, name := range []string{"strict"} {
		p, _ := testRegistry.Lookup(name)
		_ = reg.Register(p)
	}
	cfg, _ := policyconfig.New(reg)
	x, _ := registry.ParseIndex([]byte(`{}`), "index.json")
	_, err := runResolve(context.Background(), resolve.Options{Dir: exampleDir, Config: cfg, Versions: x, Policies: reg})
	if err == nil || !strings.Contains(err.Error(), `"terraform-module"`) {
		t.Errorf("error = %v", err)
	}
	if _, err := runResolve(context.Background(), resolve.Options{Dir: exampleDir}); err == nil {
		t.Error("no Config or Versions: no error")
	}
	if _, err := runResolve(context.Background(), resolve.Options{Dir: exampleDir, Config: cfg, Versions: x}); err == nil || !strings.Contains(err.Error(), "Policies") {
		t.Errorf("no Policies: error = %v", err)
	}
}

func TestSkipped(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"main.tf": `variable "v" {
  type    = string
  default = "1.0.0"
}
module "by_var" {
  source  = "corp/app/aws"
  version = var.w
}
module "local" {
  source = "../shared"
}
module "gh" {
  source = "github.com/corp/app"
}
module "http" {
  source = "https://example.com/app.zip"
}
terraform {
  required_providers {
    terraform = { source = "terraform.io/builtin/terraform" }
    dyn       = { source = "corp/dyn", version = var.v }
  }
}
variable "w" {
  type = string
}`,
	})
	cfg := loadConfig(t, t.TempDir())
	x, _ := registry.ParseIndex([]byte(`{}`), "index.json")
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.Skipped {
		got = append(got, fmt.Sprintf("%s %s %s: %s", s.Kind, s.Name, s.Pos, s.Reason))
	}
	want := []string{
		"module by_var main.tf:5:1: the version is an expression (var.w) that is not static: var.w has no default value (values given to init with -var or in .tfvars files are not read)",
		"module gh main.tf:12:1: not from a registry: GitHub repository (github.com is a Git shorthand, not a registry host)",
		"module http main.tf:15:1: not from a registry: HTTP URL",
		"provider dyn main.tf:21:5: an argument is an expression (var.v), which prerel does not evaluate",
		"provider terraform main.tf:20:5: built-in provider, not installed from a registry",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(r.Items) != 0 {
		t.Errorf("items: %+v", r.Items)
	}
}

func TestSkippedCallsAreStillInTheTree(t *testing.T) {
	dir := writeDir(t, map[string]string{"main.tf": `module "local" {
  source = "../missing"
}
module "gh" {
  source = "github.com/corp/app"
}`})
	x, _ := registry.ParseIndex([]byte(`{}`), "index.json")
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, dir), Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range r.Unread {
		got = append(got, u.Module+" "+u.Pos+": "+u.Reason)
	}
	if len(got) != 2 || !strings.HasPrefix(got[0], "module.gh main.tf:4:1: not read: run terraform init or pass --modules-dir") ||
		!strings.HasPrefix(got[1], "module.local main.tf:1:1: not read") {
		t.Errorf("unread:\n%s", strings.Join(got, "\n"))
	}
}

// treeIndex serves the versions the module tree tests look up: the real
// history of hashicorp/aws's 6.x line in part, and two modules.
const treeIndex = `{"modules": {
  "corp/app/aws": ` + `{"modules": [{"versions": [{"version": "1.0.0"}, {"version": "1.1.0"}, {"version": "2.0.0"}, {"version": "2.1.0-beta.1"}]}]}` + `,
  "corp/db/aws": ` + `{"modules": [{"versions": [{"version": "3.0.0"}, {"version": "3.1.0"}]}]}` + `
}, "providers": {
  "hashicorp/aws": ` + `{"versions": [{"version": "5.100.0"}, {"version": "6.0.0"}, {"version": "6.10.0"}, {"version": "6.10.3"}, {"version": "6.11.0"}, {"version": "6.30.0"}]}` + `,
  "hashicorp/time": ` + `{"versions": [{"version": "0.12.0"}, {"version": "0.13.1"}]}` + `
}}`

// TestModuleTree resolves a root module with a local child, a grandchild
// and a registry module installed by terraform init, as Terraform does:
// provider constraints of every module intersected, module calls of
// every module resolved.
func TestModuleTree(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"main.tf": `terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 6.0"
    }
  }
}
module "eks" {
  source = "./modules/eks"
}
module "app" {
  source  = "corp/app/aws"
  version = "~> 1.0"
}`,
		"modules/eks/main.tf": `terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 6.10.0"
    }
  }
}
module "node_group" {
  source = "./node_group"
}
module "app" {
  source  = "corp/app/aws"
  version = ">= 2.0.0"
}`,
		"modules/eks/node_group/main.tf": `terraform {
  required_providers {
    time = {
      source  = "hashicorp/time"
      version = ">= 0.9"
    }
  }
}`,
		// What terraform init leaves for the root's registry call.
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},` +
			`{"Key":"app","Source":"registry.terraform.io/corp/app/aws","Version":"1.1.0","Dir":".terraform/modules/app"},` +
			`{"Key":"eks","Source":"./modules/eks","Dir":"modules/eks"},` +
			`{"Key":"eks.app","Source":"registry.terraform.io/corp/app/aws","Version":"2.0.0","Dir":".terraform/modules/eks.app"},` +
			`{"Key":"eks.node_group","Source":"./node_group","Dir":"modules/eks/node_group"}]}`,
		".terraform/modules/app/main.tf": `module "db" {
  source  = "corp/db/aws"
  version = "~> 3.0"
}`,
		".terraform/modules/eks.app/main.tf": `# no calls`,
		"prerel.hcl": `module "eks.app" {
  policy = "linear"
}`,
	})
	x, err := registry.ParseIndex([]byte(treeIndex), "index.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, dir), Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range r.Items {
		got = append(got, fmt.Sprintf("%s %s [%s] %s: %s, terraform %s", it.Kind, it.Name, it.Origins(), it.Policy, cell(it.Selected), cell(it.ByPolicy[it.TerraformPolicy])))
	}
	want := []string{
		"module app [root: ~> 1.0] strict: 1.1.0, terraform 1.1.0",
		"module app.db [module.app: ~> 3.0] strict: 3.1.0, terraform 3.1.0",
		"module eks.app [module.eks: >= 2.0.0] linear: 2.1.0-beta.1, terraform 2.0.0",
		// The root alone would install 6.30.0: the child narrows it.
		"provider aws [root: >= 6.0; module.eks: ~> 6.10.0] strict: 6.10.3, terraform 6.10.3",
		// Required only by a grandchild.
		"provider time [module.eks.module.node_group: >= 0.9] strict: 0.13.1, terraform 0.13.1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(r.Modules, ",") != "root,module.app,module.eks,module.eks.module.app,module.eks.module.node_group" {
		t.Errorf("modules read: %q", r.Modules)
	}
	aws := r.Items[3]
	if aws.Requirements[1].Pos != "modules/eks/main.tf:3:5" || aws.Pos != "main.tf:3:5" {
		t.Errorf("requirements: %+v", aws.Requirements)
	}
}

func cell(p *string) string {
	if p == nil {
		return "none"
	}
	return *p
}

func TestConflictingConstraintsNameBothSources(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"main.tf": `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = ">= 6.11" }
  }
}
module "eks" {
  source = "./eks"
}`,
		"eks/versions.tf": `terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 6.10.0" }
  }
}`,
	})
	x, _ := registry.ParseIndex([]byte(treeIndex), "index.json")
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, dir), Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	bad := r.Unsatisfied()
	want := "no available version of provider hashicorp/aws matches root: >= 6.11; module.eks: ~> 6.10.0 under policy strict; the newest available version is 6.30.0"
	if len(bad) != 1 || bad[0].Problem != want {
		t.Fatalf("unsatisfied: %+v\nwant %q", bad, want)
	}
}

func TestPolicyForACallInAModuleNotRead(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"main.tf": `module "eks" {
  source  = "corp/app/aws"
  version = "1.0.0"
}`,
		"prerel.hcl": `module "eks.node_group" {
  policy = "cargo"
}
module "vpc" {
  policy = "cargo"
}`,
	})
	x, _ := registry.ParseIndex([]byte(treeIndex), "index.json")
	_, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, dir), Versions: x, Policies: testRegistry})
	var diags hcl.Diagnostics
	if !errors.As(err, &diags) || len(diags) != 1 || !strings.Contains(diag.Format(diags[0]), `prerel.hcl:4:8: No module call "vpc" in the configuration; Its module calls: eks.`) {
		t.Fatalf("error: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "prerel.hcl"), []byte("module \"eks.node_group\" {\n  policy = \"cargo\"\n}\n"), 0o644)
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, dir), Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], `prerel.hcl:1:8: warning: The policy for module "eks.node_group" is not checked; The module the call "eks" installs was not read`) {
		t.Errorf("warnings: %q", r.Warnings)
	}
}

// TestRealLayout resolves the layout of terraform-aws-eks's
// examples/eks-hybrid-nodes as terraform init leaves it (see
// terraform/config/testdata/tree/README.md): hashicorp/time, which only
// the called eks module requires, is resolved with its origin, and the
// aws provider's constraint joins every module's.
func TestRealLayout(t *testing.T) {
	index := `{"providers": {"hashicorp/time": ` + providerBody("0.8.0", "0.9.0", "0.12.0", "0.13.1", "0.14.0-alpha1") + `}}`
	x, err := registry.ParseIndex([]byte(index), "index.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := "../terraform/config/testdata/tree/eks-hybrid-nodes"
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, t.TempDir()), Versions: x, Policies: testRegistry, LockFile: "-"})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]resolve.Item{}
	for _, it := range r.Items {
		byName[string(it.Kind)+" "+it.Name] = it
	}
	time := byName["provider time"]
	if time.Origins() != "module.eks: >= 0.9" || time.Status != resolve.StatusOK || cell(time.Selected) != "0.13.1" || time.Pos != ".terraform/modules/eks/versions.tf:13:5" {
		t.Errorf("time: %s, %s %s at %s (%s)", time.Origins(), time.Status, cell(time.Selected), time.Pos, time.Problem)
	}
	aws := byName["provider aws"]
	if !strings.HasPrefix(aws.Origins(), "root: >= 6.28; module.eks: >= 6.28; ") || aws.Status != resolve.StatusError {
		t.Errorf("aws: %s, %s", aws.Origins(), aws.Status)
	}
	if _, ok := byName["module eks.kms"]; !ok || len(r.Modules) != 12 || len(r.Unread) != 0 {
		t.Errorf("modules read %q, unread %+v", r.Modules, r.Unread)
	}
}

func TestStaticVersion(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"variables.tf": `variable "major" {
  type    = string
  const   = true
  default = "1"
}
variable "minor" {
  default = "1.1.0"
}
`,
		"main.tf": `locals {
  app = format("~> %s.0", var.major)
}
module "app" {
  source  = "corp/app/aws"
  version = local.app
}
module "db" {
  source  = "corp/db/aws"
  version = var.major
}
module "web" {
  source  = "corp/app/aws"
  version = var.minor
}`,
	})
	x, err := registry.ParseIndex([]byte(`{"modules": {
  "corp/app/aws": {"modules": [{"versions": [{"version": "1.0.0"}, {"version": "1.1.0"}, {"version": "2.0.0"}]}]},
  "corp/db/aws": {"modules": [{"versions": [{"version": "1.0.0"}]}]}
}}`), "index.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, t.TempDir()), Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range r.Items {
		sel := "none"
		if it.Selected != nil {
			sel = *it.Selected
		}
		got = append(got, fmt.Sprintf("%s %q from %q at %s: %s", it.Name, it.Constraint, it.ConstraintFrom, it.Pos, sel))
	}
	want := []string{
		`app "~> 1.0" from "local.app (main.tf:2)" at main.tf:6:13: 1.1.0`,
		`db "1" from "var.major (variables.tf:1)" at main.tf:10:13: 1.0.0`,
		`web "1.1.0" from "var.minor (variables.tf:6)" at main.tf:14:13: 1.1.0`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(r.Skipped) != 0 {
		t.Errorf("skipped: %+v", r.Skipped)
	}
	want = []string{filepath.Join(dir, "main.tf") + `:14:13: warning: Version not constant for Terraform; module "web": the version var.minor is made of var.minor, not declared const = true: OpenTofu evaluates it before init, as prerel does from the defaults, but Terraform 1.15 refuses it.`}
	if strings.Join(r.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(r.Warnings, "\n"), strings.Join(want, "\n"))
	}
}
