package resolve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/prerel/prerel/adapters" // today's installers
	"github.com/prerel/prerel/adapters/registry"
	"github.com/prerel/prerel/engine"
	_ "github.com/prerel/prerel/policies"
	"github.com/prerel/prerel/policies/moduleconfig"
	"github.com/prerel/prerel/resolve"
)

var update = flag.Bool("update", false, "rewrite the golden files and the example index")

func mustPolicies(t *testing.T, names ...string) []engine.Policy {
	t.Helper()
	ps, err := engine.Default.Resolve(names)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		return nil
	}
	return ps
}

func exampleConfig(t *testing.T) *moduleconfig.Config {
	t.Helper()
	cfg, err := moduleconfig.Load(engine.Default, filepath.Join(exampleDir, "prerel.hcl"))
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

// golden compares got with testdata/golden/name, or writes it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./resolve -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test ./resolve -update and review the diff):\n--- got\n%s", path, got)
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		extra []string
		setup func(*moduleconfig.Config) error
	}{
		{name: "example"},
		{name: "example-extra", extra: []string{"hashicorp", "masterminds-pre", "lexical"}},
		{name: "example-unsatisfied", setup: func(c *moduleconfig.Config) error {
			return c.SetModule("consul_next", "terraform-module", moduleconfig.FlagOrigin("--module-policy consul_next=terraform-module"))
		}},
	}
	renderers := []struct {
		ext    string
		render func(w *bytes.Buffer, r *resolve.Report) error
	}{
		{"txt", func(w *bytes.Buffer, r *resolve.Report) error { return resolve.RenderText(w, r) }},
		{"md", func(w *bytes.Buffer, r *resolve.Report) error { return resolve.RenderMarkdown(w, r) }},
		{"json", func(w *bytes.Buffer, r *resolve.Report) error { return resolve.RenderJSON(w, r) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := exampleConfig(t)
			if tt.setup != nil {
				if err := tt.setup(cfg); err != nil {
					t.Fatal(err)
				}
			}
			r, err := resolve.Run(context.Background(), resolve.Options{
				Dir: exampleDir, Config: cfg, Source: exampleIndex(t), Extra: mustPolicies(t, tt.extra...),
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, rd := range renderers {
				var b bytes.Buffer
				if err := rd.render(&b, r); err != nil {
					t.Fatal(err)
				}
				golden(t, tt.name+"."+rd.ext, b.Bytes())
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
	if err := resolve.RenderJSON(&b, &c); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRegistryOverHTTPMatchesIndex(t *testing.T) {
	srv := serveIndex(t, filepath.Join(exampleDir, "index.json"))
	opts := resolve.Options{Dir: exampleDir, Config: exampleConfig(t), Extra: mustPolicies(t, "lexical", "hashicorp")}
	opts.Source = exampleIndex(t)
	fromIndex, err := resolve.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Source = &registry.Client{BaseURL: srv.URL, Timeout: 5 * time.Second}
	fromRegistry, err := resolve.Run(context.Background(), opts)
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
			cfg, err := moduleconfig.New(engine.Default)
			if tt.cfg != "" {
				cfg, err = moduleconfig.Load(engine.Default, filepath.Join(dir, "prerel.hcl"))
			}
			if err != nil {
				t.Fatal(err)
			}
			x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := resolve.Run(context.Background(), resolve.Options{Dir: dir, Config: cfg, Source: x})
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
				got := want{it.Name, it.Policy, str(it.Selected), str(it.ByPolicy[it.TerraformPolicy]), str(it.ByPolicy[it.OpenTofuPolicy]), it.Status}
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
	cfg, _ := moduleconfig.New(engine.Default)
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := resolve.Run(context.Background(), resolve.Options{Dir: dir, Config: cfg, Source: x})
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
	cfg, _ := moduleconfig.New(engine.Default)
	x, _ := registry.LoadIndex(filepath.Join(dir, "index.json"))
	r, err := resolve.Run(context.Background(), resolve.Options{Dir: dir, Config: cfg, Source: x})
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
		setup func(*moduleconfig.Config) error
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
			want:  []string{`main.tf:3:13: module "app": invalid version constraint`},
		},
		{
			name: "invalid provider source",
			files: map[string]string{"main.tf": `terraform {
  required_providers {
    x = { source = "a/b/c/d" }
  }
}`},
			want: []string{`main.tf:3:5: provider "x": provider source "a/b/c/d": expected [HOST/]NAMESPACE/TYPE`},
		},
		{
			name:  "override for a module not called",
			files: map[string]string{"main.tf": okModule, "prerel.hcl": "module \"ap\" {\n  policy = \"cargo\"\n}\n"},
			want:  []string{`prerel.hcl:1:8: module "ap" is not called by the configuration; did you mean "app"?`},
		},
		{
			name:  "flag override for a module not called",
			files: map[string]string{"main.tf": okModule},
			setup: func(c *moduleconfig.Config) error {
				return c.SetModule("nope", "cargo", moduleconfig.FlagOrigin("--module-policy nope=cargo"))
			},
			want: []string{`--module-policy nope=cargo: module "nope" is not called by the configuration`},
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
			cfg, err := moduleconfig.New(engine.Default)
			if _, ok := tt.files["prerel.hcl"]; ok {
				cfg, err = moduleconfig.Load(engine.Default, filepath.Join(dir, "prerel.hcl"))
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.setup != nil {
				if err := tt.setup(cfg); err != nil {
					t.Fatal(err)
				}
			}
			x, _ := registry.ParseIndex([]byte(`{}`), "index.json")
			_, err = resolve.Run(context.Background(), resolve.Options{Dir: dir, Config: cfg, Source: x})
			var ce *resolve.ConfigError
			if !errorsAs(err, &ce) {
				t.Fatalf("error %T %v, want *resolve.ConfigError", err, err)
			}
			if len(ce.Problems) != len(tt.want) {
				t.Fatalf("problems:\n%s\nwant %d", ce, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(ce.Problems[i], w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, ce.Problems[i], w)
				}
			}
		})
	}
}

func errorsAs(err error, target **resolve.ConfigError) bool {
	ce, ok := err.(*resolve.ConfigError)
	if ok {
		*target = ce
	}
	return ok
}

func TestRunNeedsTodaysSelectors(t *testing.T) {
	reg := engine.NewRegistry()
	for _, name := range []string{"strict"} {
		p, _ := engine.Default.Lookup(name)
		_ = reg.Register(p)
	}
	cfg, _ := moduleconfig.New(reg)
	x, _ := registry.ParseIndex([]byte(`{}`), "index.json")
	_, err := resolve.Run(context.Background(), resolve.Options{Dir: exampleDir, Config: cfg, Source: x, Registry: reg})
	if err == nil || !strings.Contains(err.Error(), `"terraform-module"`) {
		t.Errorf("error = %v", err)
	}
	if _, err := resolve.Run(context.Background(), resolve.Options{Dir: exampleDir}); err == nil {
		t.Error("no Config or Source: no error")
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
  version = var.v
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
}`,
	})
	cfg, _ := moduleconfig.New(engine.Default)
	x, _ := registry.ParseIndex([]byte(`{}`), "index.json")
	r, err := resolve.Run(context.Background(), resolve.Options{Dir: dir, Config: cfg, Source: x})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range r.Skipped {
		got = append(got, fmt.Sprintf("%s %s %s: %s", s.Kind, s.Name, s.Pos, s.Reason))
	}
	want := []string{
		"module by_var main.tf:5:1: the version is an expression (var.v), which prerel does not evaluate",
		"module gh main.tf:12:1: GitHub repository",
		"module http main.tf:15:1: HTTP URL",
		"module local main.tf:9:1: local path",
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
