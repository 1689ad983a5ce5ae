package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const (
	resolveExample = "../../testdata/resolve"
	resolveIndex   = "../../testdata/resolve/index.json"
)

// resolveJSON is the part of the JSON output scripts rely on.
type resolveJSON struct {
	Items []struct {
		Kind       string             `json:"kind"`
		Name       string             `json:"name"`
		Source     string             `json:"source"`
		Constraint string             `json:"constraint"`
		Policy     string             `json:"policy"`
		Selected   *string            `json:"selected"`
		ByPolicy   map[string]*string `json:"by_policy"`
		From       string             `json:"from"`
	} `json:"items"`
	Skipped []struct {
		Name   string `json:"name"`
		Reason string `json:"reason"`
	} `json:"skipped"`
	Locks    []json.RawMessage `json:"locks"`
	Warnings []string          `json:"warnings"`
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{
			name: "example, text: locked versions the chosen policy refuses are findings",
			args: []string{"--index", resolveIndex, resolveExample},
			code: exitFinding,
			stderr: []string{
				"prerel resolve: 2 locked provider versions are not admitted by the chosen policy:\n" +
					`  locked provider registry.terraform.io/hashicorp/google 3.0.0-beta.1 (.terraform.lock.hcl:15:1): not admitted by strict for "~> 3.0.0-beta.1": reject: prerelease: no = comparator names it, and only an exact = admits a prerelease` + "\n" +
					`  locked provider registry.terraform.io/hashicorp/helm 3.0.0-pre2 (.terraform.lock.hcl:20:1): not admitted by cargo for ">= 2.0.0-beta.1, ~> 2.9": reject: prerelease:`,
			},
			stdout: []string{
				"default policy: cargo (../../testdata/resolve/prerel.hcl:4:18)",
				"*  consul_next  2.0.0-rc1, >= 1.0.0  none     2.0.0-rc1 (strict)",
				"   helm        ~> 2.9, >= 2.0.0-beta.1 (network, root; …  2.17.0  2.17.0",
				"module.vpc (main.tf:10:1): terraform-aws-modules/vpc/aws: not read: run terraform init or pass --modules-dir",
			},
		},
		{
			name:   "markdown",
			args:   []string{"--index", resolveIndex, "--format", "markdown", resolveExample},
			code:   exitFinding,
			stdout: []string{"| **changed** | module | `consul_next` |"},
		},
		{
			name:   "flags override the file",
			args:   []string{"--index", resolveIndex, "--policy", "strict", "--module-policy", "consul=cargo", "--provider-policy", "hashicorp/google=lexical", resolveExample},
			code:   exitFinding,
			stdout: []string{"default policy: strict (--policy strict)", "*  consul       ~> 1.2.0-rc1         none     1.2.9 (cargo)", "*  google      ~> 3.0.0-beta.1                    3.0.0   3.0.0-beta.1 (lexical)"},
		},
		{
			name:   "extra columns",
			args:   []string{"--index", resolveIndex, "--policies", "hashicorp,lexical", "--lock-file", "-", resolveExample},
			code:   exitOK,
			stdout: []string{"extra policies: hashicorp, lexical\n", "(lexical)  hashicorp: 1.2.0-rc1 (today none)"},
		},
		{
			name:   "no admissible version: exit 1, table printed",
			args:   []string{"--index", resolveIndex, "--module-policy", "consul_next=terraform-module", "--lock-file", "-", resolveExample},
			code:   exitFinding,
			stdout: []string{"Problems:"},
			stderr: []string{`prerel resolve: module "consul_next" (main.tf:30:13): no available version of module hashicorp/consul-k8s/kubernetes matches the constraint "2.0.0-rc1, >= 1.0.0" under policy terraform-module; the newest available version is 2.0.3` + "\n"},
		},
		{
			name:   "no admissible version and refused locks: every finding named",
			args:   []string{"--index", resolveIndex, "--module-policy", "consul_next=terraform-module", resolveExample},
			code:   exitFinding,
			stdout: []string{"Problems:"},
			stderr: []string{
				"prerel resolve: 1 item has no admissible version under the chosen policy:\n" +
					`  module "consul_next" (main.tf:30:13): no available version of module hashicorp/consul-k8s/kubernetes matches the constraint "2.0.0-rc1, >= 1.0.0" under policy terraform-module; the newest available version is 2.0.3` + "\n" +
					"2 locked provider versions are not admitted by the chosen policy:\n" +
					"  locked provider registry.terraform.io/hashicorp/google 3.0.0-beta.1 (.terraform.lock.hcl:15:1)",
				"  locked provider registry.terraform.io/hashicorp/helm 3.0.0-pre2 (.terraform.lock.hcl:20:1)",
			},
		},
		{
			name:   "no lock file",
			args:   []string{"--index", resolveIndex, "--lock-file", "-", resolveExample},
			code:   exitOK,
			stdout: []string{"Skipped"},
		},
		{name: "unknown default policy", args: []string{"--index", resolveIndex, "--policy", "nope", resolveExample}, code: exitUsage,
			stderr: []string{`prerel resolve: --policy nope: Unknown policy "nope"; Known policies: any-pre,`}},
		{name: "unknown module override", args: []string{"--index", resolveIndex, "--module-policy", "consull=cargo", resolveExample}, code: exitUsage,
			stderr: []string{`--module-policy consull=cargo: No module call "consull" in the configuration; Did you mean "consul"?`}},
		{name: "nested module override", args: []string{"--index", resolveIndex, "--module-policy", "network.vpc=linear", "--lock-file", "-", resolveExample}, code: exitOK,
			stdout: []string{"   network.vpc  ~> 5.0.0             5.0.0    5.0.0 (linear)"}},
		{name: "flags after the directory", args: []string{resolveExample, "--index", resolveIndex, "--format", "markdown"}, code: exitFinding,
			stdout: []string{"| **changed** | module | `consul_next` |"}},
		{name: "bad module-policy flag", args: []string{"--module-policy", "consul", resolveExample}, code: exitUsage,
			stderr: []string{`expected NAME=POLICY`}},
		{name: "unknown extra policy", args: []string{"--index", resolveIndex, "--policies", "nope", resolveExample}, code: exitUsage,
			stderr: []string{`unknown policy "nope"`}},
		{name: "index and registry", args: []string{"--index", resolveIndex, "--registry-url", "http://127.0.0.1:1", resolveExample}, code: exitUsage,
			stderr: []string{"cannot be used together"}},
		{name: "bad registry url", args: []string{"--registry-url", "ftp://x", resolveExample}, code: exitUsage,
			stderr: []string{"not an http:// or https:// URL"}},
		{name: "missing config", args: []string{"--index", resolveIndex, "--config", "nope.hcl", resolveExample}, code: exitUsage,
			stderr: []string{"nope.hcl"}},
		{name: "empty directory argument", args: []string{"--index", resolveIndex, ""}, code: exitUsage,
			stderr: []string{"the root module directory is empty: give a directory, such as . for the current one"}},
		{name: "missing index", args: []string{"--index", "nope.json", resolveExample}, code: exitUsage,
			stderr: []string{"nope.json"}},
		{name: "no directory", args: []string{"--index", resolveIndex}, code: exitUsage,
			stderr: []string{"resolve needs exactly one root module directory"}},
		{name: "not a directory", args: []string{"--index", resolveIndex, resolveIndex}, code: exitUsage,
			stderr: []string{"is not a directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", append([]string{"resolve"}, tt.args...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			mustContain(t, "stdout", unwrapText(stdout), tt.stdout)
			mustContain(t, "stderr", stderr, tt.stderr)
		})
	}
}

func TestResolveJSON(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "resolve", "--index", resolveIndex, "--policies", "hashicorp", "--format", "json", resolveExample)
	if code != exitFinding {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out resolveJSON
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 11 || len(out.Skipped) != 1 || len(out.Locks) != 5 || out.Warnings == nil {
		t.Fatalf("%d items, %d skipped, %d locks, warnings %v", len(out.Items), len(out.Skipped), len(out.Locks), out.Warnings)
	}
	for _, it := range out.Items {
		today := "terraform-module"
		if it.Kind == "provider" {
			today = "apparentlymart"
		}
		for _, p := range []string{it.Policy, today, "hashicorp"} {
			if _, ok := it.ByPolicy[p]; !ok {
				t.Errorf("%s %s: by_policy lacks %q: %v", it.Kind, it.Name, p, it.ByPolicy)
			}
		}
		if (it.Selected == nil) != (it.ByPolicy[it.Policy] == nil) || it.Selected != nil && *it.Selected != *it.ByPolicy[it.Policy] {
			t.Errorf("%s: selected %v, by_policy[%s] %v", it.Name, it.Selected, it.Policy, it.ByPolicy[it.Policy])
		}
	}
	first := out.Items[0]
	if first.Kind != "module" || first.Name != "consul" || first.Source != "hashicorp/consul-k8s/kubernetes" ||
		first.Constraint != "~> 1.2.0-rc1" || first.Policy != "lexical" || *first.Selected != "1.2.0-rc1" ||
		first.ByPolicy["terraform-module"] != nil || first.ByPolicy["opentofu-module"] != nil {
		t.Errorf("first item: %+v", first)
	}
}

// TestResolveRegistryURL runs the example against a registry on a loopback
// test server that serves the example index's bodies; the output must be
// the one from the index.
func TestResolveRegistryURL(t *testing.T) {
	data, err := os.ReadFile(resolveIndex)
	if err != nil {
		t.Fatal(err)
	}
	var x map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &x); err != nil {
		t.Fatal(err)
	}
	missing := "" // a module path that answers 404 when set
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/.well-known/terraform.json":
			fmt.Fprint(w, `{"modules.v1": "/m/", "providers.v1": "/p/"}`)
			return
		case missing != "" && strings.Contains(p, missing):
		case strings.HasPrefix(p, "/m/") && strings.HasSuffix(p, "/versions"):
			if body, ok := x["modules"][strings.TrimSuffix(strings.TrimPrefix(p, "/m/"), "/versions")]; ok {
				w.Write(body)
				return
			}
		case strings.HasPrefix(p, "/p/") && strings.HasSuffix(p, "/versions"):
			key := strings.TrimSuffix(strings.TrimPrefix(p, "/p/"), "/versions")
			for k, body := range x["providers"] {
				if strings.EqualFold(k, key) {
					w.Write(body)
					return
				}
			}
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()

	strip := func(s string) resolveJSON {
		var out resolveJSON
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			t.Fatal(err)
		}
		for i := range out.Items {
			out.Items[i].From = ""
		}
		return out
	}
	_, fromIndex, _ := runCLI(t, "", "resolve", "--index", resolveIndex, "--format", "json", resolveExample)
	code, fromRegistry, stderr := runCLI(t, "", "resolve", "--registry-url", srv.URL, "--format", "json", resolveExample)
	if code != exitFinding {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	a, b := strip(fromIndex), strip(fromRegistry)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("registry output differs from index output:\n%s\n%s", ja, jb)
	}

	missing = "/m/terraform-aws-modules/eks/aws/"
	code, stdout, stderr := runCLI(t, "", "resolve", "--registry-url", "registry.terraform.io="+srv.URL, "--retries", "0", resolveExample)
	if code != exitFailure || !strings.Contains(stderr, "the versions of 1 of 11 items could not be listed") ||
		!strings.Contains(stderr, `module "eks": module terraform-aws-modules/eks/aws: GET `+srv.URL+"/m/terraform-aws-modules/eks/aws/versions: 404 Not Found") {
		t.Errorf("exit %d\nstderr: %s", code, stderr)
	}
	// The findings are named too, after the failure that sets the status.
	if !strings.Contains(stderr, "\n2 locked provider versions are not admitted by the chosen policy:\n") {
		t.Errorf("stderr does not name the refused locked versions:\n%s", stderr)
	}
	if !strings.Contains(stdout, "   eks          >= 20.0.0, < 21.0.0  error   error\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
}

func TestResolveConfigErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"bad prerel.hcl", map[string]string{
			"main.tf":    "module \"a\" {\n  source = \"corp/a/aws\"\n}\n",
			"prerel.hcl": "default_policy = \"carg\"\nmodule \"b\" {\n  policy = \"strict\"\n}\n",
		}, "prerel.hcl:1:18: Unknown policy \"carg\""},
		{"override for a module not called", map[string]string{
			"main.tf":    "module \"a\" {\n  source = \"corp/a/aws\"\n}\n",
			"prerel.hcl": "module \"b\" {\n  policy = \"strict\"\n}\n",
		}, "prerel.hcl:1:8: No module call \"b\" in the configuration; Did you mean \"a\"?"},
		{"syntax error", map[string]string{
			"main.tf": "module \"a\" {\n  source = \"corp/a/aws\"\n  version = \"1.0\n}\n",
		}, "main.tf:3:17: Invalid multi-line string"},
		{"no configuration", map[string]string{"README.md": "nothing"}, "has no .tf, .tf.json, .tofu or .tofu.json files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, _, stderr := runCLI(t, "", "resolve", "--index", resolveIndex, dir)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant %q", code, stderr, tt.want)
			}
		})
	}
}

// TestResolveModuleTree runs resolve on a root module whose registry
// module was installed by terraform init into a modules directory given
// with --modules-dir, and whose local child narrows a provider
// constraint so that no version is left: exit 1, both sources named.
func TestResolveModuleTree(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"root/main.tf": `terraform {
  required_providers {
    helm = { source = "hashicorp/helm", version = ">= 3.0.0" }
  }
}
module "net" {
  source = "./net"
}
module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.0"
}`,
		"root/net/main.tf": `terraform {
  required_providers {
    helm = { source = "hashicorp/helm", version = "~> 2.9" }
  }
}`,
		"data/modules/modules.json": `{"Modules": [{"Key": "", "Source": "", "Dir": "."},
  {"Key": "eks", "Source": "registry.terraform.io/terraform-aws-modules/eks/aws", "Version": "20.37.2", "Dir": "../data/modules/eks"}]}`,
		"data/modules/eks/versions.tf": `terraform {
  required_providers {
    kubernetes = { source = "hashicorp/kubernetes", version = ">= 2.23" }
  }
}`,
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(dir, "root")
	code, stdout, stderr := runCLI(t, "", "resolve", root, "--index", resolveIndex, "--modules-dir", filepath.Join(dir, "data", "modules"))
	if code != exitFinding {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		// Only module.eks, read from the modules directory, requires it.
		"\n   kubernetes  >= 2.23  ",
		"root module:    " + root + " (3 modules read)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// The requirement is module.eks's, as read from the modules directory.
	_, js, _ := runCLI(t, "", "resolve", root, "--format", "json", "--index", resolveIndex, "--modules-dir", filepath.Join(dir, "data", "modules"))
	if !strings.Contains(js, `"requirements": [
        {
          "module": "module.eks",
          "constraint": ">= 2.23",`) {
		t.Errorf("the JSON report does not give kubernetes's requirement as module.eks's:\n%s", js)
	}
	want := `provider "helm" (main.tf:3:5): no available version of provider hashicorp/helm matches root: >= 3.0.0; module.net: ~> 2.9 under policy strict`
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	// Without the modules directory the registry module is listed as not read.
	code, stdout, _ = runCLI(t, "", "resolve", root, "--index", resolveIndex)
	if code != exitFinding || !strings.Contains(unwrapText(stdout), "module.eks (main.tf:9:1): terraform-aws-modules/eks/aws: not read: run terraform init or pass --modules-dir") {
		t.Errorf("exit %d, stdout:\n%s", code, stdout)
	}
}

// findingsIndex lists a module whose newest version is a prerelease and a
// provider with a prerelease, for TestResolveNamesEveryProblem.
const findingsIndex = `{"modules": {
  "reg.example/ns/ok/aws": {"modules": [{"versions": [{"version": "1.0.0"}, {"version": "2.0.0-beta"}]}]}
}, "providers": {
  "reg.example/ns/thing": {"versions": [{"version": "1.0.0"}, {"version": "2.0.0-beta"}]}
}}`

// TestResolveNamesEveryProblem checks that stderr names every problem of
// every kind (items whose versions could not be listed, items with no
// admissible version, locked versions the chosen policy does not admit),
// and that the exit status is the most severe kind's: a failure before a
// finding.
func TestResolveNamesEveryProblem(t *testing.T) {
	const (
		missing     = `module "missing": module reg.example/ns/missing/aws: not found in `
		unsatisfied = `module "ok" (main.tf:3:13): no available version of module reg.example/ns/ok/aws matches the constraint ">= 9.0.0" under policy strict; the newest available version is 2.0.0-beta`
		refused     = `locked provider reg.example/ns/thing 2.0.0-beta (.terraform.lock.hcl:1:1): not admitted by strict for ">= 1.0": reject: prerelease: `
		legend      = "* the chosen policy selects another version"
	)
	okCall := "module \"ok\" {\n  source  = \"reg.example/ns/ok/aws\"\n  version = \"%s\"\n}\n"
	missingCall := "module \"missing\" {\n  source  = \"reg.example/ns/missing/aws\"\n  version = \">= 1.0.0\"\n}\n"
	provider := "terraform {\n  required_providers {\n    thing = { source = \"reg.example/ns/thing\", version = \">= 1.0\" }\n  }\n}\n"
	lock := "provider \"reg.example/ns/thing\" {\n  version = \"%s\"\n}\n"
	tests := []struct {
		name           string
		files          map[string]string
		code           int
		stderr         []string
		stdout, absent []string
	}{
		{
			name:   "nothing wrong: no legend without a marked row",
			files:  map[string]string{"main.tf": fmt.Sprintf(okCall, ">= 1.0.0") + provider, ".terraform.lock.hcl": fmt.Sprintf(lock, "1.0.0")},
			code:   exitOK,
			absent: []string{legend},
		},
		{
			name:   "no admissible version and a missing address",
			files:  map[string]string{"main.tf": fmt.Sprintf(okCall, ">= 9.0.0") + missingCall},
			code:   exitFailure,
			stderr: []string{"prerel resolve: the versions of 1 of 2 items could not be listed:\n  " + missing, "\n1 item has no admissible version under the chosen policy:\n  " + unsatisfied + "\n"},
		},
		{
			name:   "a locked version the chosen policy refuses",
			files:  map[string]string{"main.tf": provider, ".terraform.lock.hcl": fmt.Sprintf(lock, "2.0.0-beta")},
			code:   exitFinding,
			stderr: []string{"prerel resolve: " + refused},
			stdout: []string{"reg.example/ns/thing 2.0.0-beta: NOT admitted by strict"},
			absent: []string{legend},
		},
		{
			name: "no admissible version and a refused locked version",
			files: map[string]string{"main.tf": fmt.Sprintf(okCall, ">= 9.0.0") + provider,
				".terraform.lock.hcl": fmt.Sprintf(lock, "2.0.0-beta")},
			code: exitFinding,
			stderr: []string{"prerel resolve: 1 item has no admissible version under the chosen policy:\n  " + unsatisfied + "\n" +
				"1 locked provider version is not admitted by the chosen policy:\n  " + refused},
		},
		{
			name: "all three kinds",
			files: map[string]string{"main.tf": fmt.Sprintf(okCall, ">= 9.0.0") + missingCall + provider,
				".terraform.lock.hcl": fmt.Sprintf(lock, "2.0.0-beta")},
			code: exitFailure,
			stderr: []string{"prerel resolve: the versions of 1 of 3 items could not be listed:\n  " + missing,
				"\n1 item has no admissible version under the chosen policy:\n  " + unsatisfied + "\n",
				"\n1 locked provider version is not admitted by the chosen policy:\n  " + refused},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.files["index.json"] = findingsIndex
			for name, content := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, stdout, stderr := runCLI(t, "", "resolve", "--index", filepath.Join(dir, "index.json"), dir)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			if tt.code == exitOK && stderr != "" {
				t.Errorf("stderr: %s", stderr)
			}
			mustContain(t, "stderr", stderr, tt.stderr)
			mustContain(t, "stdout", stdout, tt.stdout)
			for _, a := range tt.absent {
				if strings.Contains(stdout, a) {
					t.Errorf("stdout has %q:\n%s", a, stdout)
				}
			}
		})
	}
}

// TestResolveOutsideText runs resolve against a registry on a loopback
// test server, reached through a URL with a password, that answers with
// warnings holding escape sequences and Markdown links and images, and
// with a 500 whose reason phrase holds an escape sequence; the
// configuration's labels and sources hold escape sequences and backtick
// runs. No format and no error shows a control character or the password,
// and Markdown shows the outside text literally.
func TestResolveOutsideText(t *testing.T) {
	const secret = "s3cret"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/terraform.json":
			fmt.Fprint(w, `{"modules.v1": "/m/", "providers.v1": "/p/"}`)
		case "/m/ns/app/aws/versions":
			fmt.Fprint(w, `{"modules": [{"versions": [{"version": "1.0.0"}]}]}`)
		case "/p/ns/thing/versions":
			fmt.Fprint(w, `{"versions": [{"version": "1.0.0"}], "warnings": ["\u001b[2J\u001b[31mTERMINAL HIJACK\u001b[0m", "![tracker](https://evil.example/pixel.png) [click me](https://evil.example/phish)"]}`)
		case "/m/ns/evil/aws/versions":
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			buf.WriteString("HTTP/1.1 500 \x1b[31mEVIL\x1b[0m\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			buf.Flush()
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	config := `terraform {
  required_providers {
    thing = { source = "reg.example/ns/thing", version = ">= 1.0" }
  }
}
module "\u001b[31mRED\u001b[0m" {
  source  = "reg.example/ns/app/aws"
  version = ">= 1.0"
}
module "evil" {
  source  = "reg.example/ns/evil/aws"
  version = ">= 1.0"
}
module "src" {
  source = "git::https://example.com/a` + "``" + `b ![img](https://evil.example/p.png) ` + "``" + `.git"
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "reg.example=" + strings.Replace(srv.URL, "http://", "http://user:"+secret+"@", 1)
	for _, format := range []string{"text", "markdown", "json"} {
		t.Run(format, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", "resolve", "--registry-url", url, "--retries", "0", "--timeout", "5s", "--format", format, dir)
			if code != exitFailure {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFailure, stdout, stderr)
			}
			for name, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
				if strings.ContainsAny(out, "\x1b\x07\x00") {
					t.Errorf("%s has a control character:\n%q", name, out)
				}
				if strings.Contains(out, secret) {
					t.Errorf("%s shows the password:\n%s", name, out)
				}
			}
			mustContain(t, "stderr", stderr, []string{`module "evil": module reg.example/ns/evil/aws: 127.0.0.1:`, ` answered 500 \x1b[31mEVIL\x1b[0m`})
			switch format {
			case "text":
				mustContain(t, "stdout", unwrapText(stdout), []string{
					`the registry warns: \x1b[2J\x1b[31mTERMINAL HIJACK\x1b[0m`,
					`   \x1b[31mRED\x1b[0m  >= 1.0`,
					"versions from:  registry reg.example=http://",
				})
			case "markdown":
				mustContain(t, "stdout", unwrapText(stdout), []string{
					`the registry warns: \!\[tracker\](https://evil.example/pixel.png) \[click me\](https://evil.example/phish)`,
					"```git::https://example.com/a``b ![img](https://evil.example/p.png) ``.git```",
					"| `\\x1b[31mRED\\x1b[0m` |",
				})
				if strings.Contains(stdout, "[click me](") || strings.Contains(stdout, "![tracker](") {
					t.Errorf("Markdown renders a link or an image:\n%s", stdout)
				}
			case "json":
				var out struct {
					VersionsFrom string `json:"versions_from"`
					Items        []struct {
						From string `json:"from"`
					} `json:"items"`
					Warnings []string `json:"warnings"`
				}
				if err := json.Unmarshal([]byte(stdout), &out); err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(out.VersionsFrom, "registry reg.example=http://") || out.Items[0].From == "" {
					t.Errorf("versions_from %q, from %q", out.VersionsFrom, out.Items[0].From)
				}
				if !slices.Contains(out.Warnings, `provider "thing" (reg.example/ns/thing): the registry warns: `+"\x1b[2J\x1b[31mTERMINAL HIJACK\x1b[0m") {
					t.Errorf("JSON warnings lose the registry's text: %q", out.Warnings)
				}
			}
		})
	}
}

// unwrapText joins each line the text reports wrap at 80 columns, continued
// with an indent of 4, to the line before, so that a check can name a
// whole line.
func unwrapText(s string) string { return strings.ReplaceAll(s, "\n    ", " ") }
