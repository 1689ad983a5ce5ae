package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/prerel/prerel/batch"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/installer/installertest"
)

// runCLI runs prerel in-process with the given stdin and returns the exit
// status, stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{
		stdin:    strings.NewReader(stdin),
		stdout:   &stdout,
		stderr:   &stderr,
		registry: catalogue.New(),
		getenv:   testEnv(nil),
	}
	code := run(e, args)
	return code, stdout.String(), stderr.String()
}

// testEnv is the environment of a test's run of prerel: vars, and
// PREREL_INSTALLER the fixtures' releases (installertest) unless vars
// sets it, so that no test depends on the newest release prerel knows or
// on the terraform and tofu this machine runs.
func testEnv(vars map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := vars[k]; ok || k != installer.Env {
			return v
		}
		return installertest.Env
	}
}

// TestPoliciesListsEveryRegisteredPolicy checks both forms of prerel
// policies: JSON lists every policy in the catalogue's order with its
// group and rule; text groups them by catalogue group, keeps the order
// within a group, marks today's rule and fits 80 columns.
func TestPoliciesListsEveryRegisteredPolicy(t *testing.T) {
	all := catalogue.New().All()
	code, out, _ := runCLI(t, "", "policies", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var listed []struct {
		Name, Group, Rule string
		Today             bool
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != len(all) {
		t.Fatalf("%d policies for %d:\n%s", len(listed), len(all), out)
	}
	var names []string
	for i, p := range all {
		l := listed[i]
		names = append(names, l.Name)
		if l.Name != p.Name() || l.Rule != p.Rule() || l.Group != catalogue.Group(p.Name()) || l.Today != (catalogue.Today(p.Name()) != "") {
			t.Errorf("policy %d = %+v, want %s, its rule and group", i, l, p.Name())
		}
	}
	if msg := inOrder(names); msg != "" {
		t.Errorf("policies lists %s", msg)
	}

	code, out, _ = runCLI(t, "", "policies")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	// Each policy's name line, then its rule wrapped under it.
	rules := map[string]string{}
	var order []string
	group := map[string]string{}
	current, name := "", ""
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line of %d columns: %q", n, l)
		}
		switch {
		case l == "":
		case !strings.HasPrefix(l, " "):
			current = strings.TrimSuffix(l, ":")
		case strings.HasPrefix(l, "      "):
			rules[name] = strings.TrimSpace(rules[name] + " " + strings.TrimSpace(l))
		default:
			name = strings.Fields(l)[0]
			order = append(order, name)
			group[name] = current
			if today := strings.Contains(l, "(today's rule"); today != (catalogue.Today(name) != "") {
				t.Errorf("line %q: marked as today's rule: %v", l, today)
			}
		}
	}
	var want []string
	for _, g := range catalogue.Groups() {
		for _, p := range all {
			if catalogue.Group(p.Name()) == g {
				want = append(want, p.Name())
			}
		}
	}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Errorf("text lists\n%s\nwant\n%s", strings.Join(order, ","), strings.Join(want, ","))
	}
	for _, p := range all {
		if rules[p.Name()] != p.Rule() || group[p.Name()] != catalogue.Group(p.Name()) {
			t.Errorf("%s: rule %q in group %q, want %q in %q", p.Name(), rules[p.Name()], group[p.Name()], p.Rule(), catalogue.Group(p.Name()))
		}
	}
}

func TestCheckJSON(t *testing.T) {
	code, out, _ := runCLI(t, "", "check", "--format", "json", "--policies", "strict,cargo", "= 2.0.0-beta.1", "2.0.0-beta.1")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Constraint string
		Versions   []struct {
			Version string
			Results []struct{ Policy, Verdict, Reason string }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Constraint != "= 2.0.0-beta.1" || len(got.Versions) != 1 || len(got.Versions[0].Results) != 2 {
		t.Fatalf("unexpected JSON: %s", out)
	}
	for _, r := range got.Versions[0].Results {
		if r.Verdict != "allow" || r.Reason == "" {
			t.Errorf("%s: %s %q, want allow with a reason", r.Policy, r.Verdict, r.Reason)
		}
	}
}

// catalogueOrder is the order of "prerel policies --format json" and the
// default verdict columns of "prerel eval": a contract scripts rely on.
// A rule added to the catalogue takes its place among them; these keep
// their order (inOrder).
var catalogueOrder = []string{
	"strict", "lexical", "cargo", "linear", "linear-tight", "ga-bound", "any-pre", "fallback", "core-only",
	"hashicorp", "apparentlymart", "apparentlymart-exact", "masterminds", "masterminds-pre",
	"terraform-module", "opentofu-module", "go-versions-cargo",
	"renovate", "dependabot", "terraform-module-versions",
	"terraform-ls", "tfupdate", "opentofu-engine",
}

// inOrder says what is wrong with names as the catalogue's order: it must
// be every registered policy in the registry's order, with the policies
// of catalogueOrder among them in that order. It returns "" when names
// is right.
func inOrder(names []string) string {
	if want := catalogue.New().Names(); strings.Join(names, ",") != strings.Join(want, ",") {
		return fmt.Sprintf("%s\nwant the registry's order\n%s", strings.Join(names, ","), strings.Join(want, ","))
	}
	i := 0
	for _, n := range names {
		if i < len(catalogueOrder) && n == catalogueOrder[i] {
			i++
		}
	}
	if i < len(catalogueOrder) {
		return fmt.Sprintf("%s\nwant %s in the order of\n%s", strings.Join(names, ","), catalogueOrder[i], strings.Join(catalogueOrder, ","))
	}
	return ""
}

func TestEvalDefaultsToEveryPolicyInOrder(t *testing.T) {
	code, out, _ := runCLI(t, ">= 1.0.0\t1.5.0\n", "eval")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	all := catalogue.New().Names()
	fields := strings.Split(strings.TrimSuffix(out, "\n"), "\t")
	if got, want := len(fields)-2, len(all); got != want {
		t.Fatalf("%d verdict columns, want one per policy (%d): %q", got, want, out)
	}
	for i, f := range fields[2:] {
		if f != "allow" {
			t.Errorf("column %d (%s) = %s, want allow", i, all[i], f)
		}
	}
	code, out, _ = runCLI(t, ">= 1.0.0\t1.5.0\n", "eval", "--format", "json")
	var line struct{ Results []struct{ Policy string } }
	if err := json.Unmarshal([]byte(out), &line); code != exitOK || err != nil {
		t.Fatalf("eval --format json: exit %d, %v: %s", code, err, out)
	}
	var columns []string
	for _, r := range line.Results {
		columns = append(columns, r.Policy)
	}
	if msg := inOrder(columns); msg != "" {
		t.Errorf("eval's default columns are %s", msg)
	}
}

func TestEvalJSON(t *testing.T) {
	code, out, _ := runCLI(t, ">= 1.0.0, < 2.0.0\t2.0.0-beta.1\n", "eval", "--format", "json", "--policies", "cargo,strict")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var line struct {
		Constraint, Version string
		Results             []struct{ Policy, Verdict, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &line); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if line.Constraint != ">= 1.0.0, < 2.0.0" || line.Version != "2.0.0-beta.1" || len(line.Results) != 2 ||
		line.Results[0].Policy != "cargo" || line.Results[1].Policy != "strict" {
		t.Fatalf("unexpected line: %s", out)
	}
	for _, r := range line.Results {
		if r.Verdict != "reject" || r.Reason == "" {
			t.Errorf("%s: %s %q, want reject with a reason", r.Policy, r.Verdict, r.Reason)
		}
	}
}

// TestEvalKeepsOrderAcrossBatches feeds more lines than one parallel batch
// and checks that every output line answers its own input line.
func TestEvalKeepsOrderAcrossBatches(t *testing.T) {
	var in strings.Builder
	n := batch.MaxLines*2 + 17
	for i := 0; i < n; i++ {
		fmt.Fprintf(&in, ">= %d.0.0\t%d.0.0\n", i%7, i%5)
	}
	code, out, _ := runCLI(t, in.String(), "eval", "--policies", "strict,hashicorp")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d output lines for %d input lines", len(lines), n)
	}
	for i, l := range lines {
		want := "reject"
		if i%5 >= i%7 {
			want = "allow"
		}
		if l != fmt.Sprintf(">= %d.0.0\t%d.0.0\t%s\t%s", i%7, i%5, want, want) {
			t.Fatalf("line %d = %q", i+1, l)
		}
	}
}

func TestSelectUsesEachPolicysOwnSelection(t *testing.T) {
	// hashicorp/go-version sorts 1.0.0-beta.alpha below 1.0.0-beta; SemVer
	// puts it above.
	code, out, _ := runCLI(t, "", "select", "--policies", "lexical,hashicorp", "--format", "json",
		">= 1.0.0-alpha", "1.0.0-beta.alpha", "1.0.0-beta")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Policies []struct {
			Policy   string
			Selected *string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"lexical": "1.0.0-beta.alpha", "hashicorp": "1.0.0-beta"}
	for _, p := range got.Policies {
		if p.Selected == nil || *p.Selected != want[p.Policy] {
			t.Errorf("%s selects %v, want %s", p.Policy, p.Selected, want[p.Policy])
		}
	}
}

// TestResolveGroupsErrors checks that a registry that is down gives one
// line for all the items it concerns, in the report and in the error,
// the items cut with a count unless --show-all.
func TestResolveGroupsErrors(t *testing.T) {
	down := httptest.NewServer(nil)
	down.Close()
	base := []string{"resolve", "--registry-url", down.URL, "--retries", "0", "--lock-file", "-", resolveExample}
	const problem = " (11 items): service discovery for registry.terraform.io: GET "
	tests := []struct {
		name           string
		args           []string
		stdout, stderr []string
		leftOut        bool
	}{
		{
			name:    "cut",
			args:    base,
			stdout:  []string{"\nProblems:\n  modules consul, consul_beta, consul_next, eks, vpc, network.vpc and 5 more" + problem},
			stderr:  []string{`could not be listed:` + "\n" + `  modules "consul", "consul_beta", "consul_next", "eks", "vpc", "network.vpc" and 5 more` + problem},
			leftOut: true,
		},
		{
			name:   "--show-all",
			args:   append(append([]string{}, base...), "--show-all"),
			stdout: []string{"\nProblems:\n  modules consul, consul_beta, consul_next, eks, vpc, network.vpc; providers cloudflare, google, helm, ibm, kubernetes" + problem},
			stderr: []string{`  modules "consul", "consul_beta", "consul_next", "eks", "vpc", "network.vpc"; providers "cloudflare", "google", "helm", "ibm", "kubernetes"` + problem},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tt.args...)
			if code != exitFailure {
				t.Fatalf("exit %d, want %d: %s", code, exitFailure, stderr)
			}
			mustContain(t, "stdout", unwrapText(stdout), tt.stdout)
			mustContain(t, "stderr", stderr, tt.stderr)
			if n := strings.Count(stdout, "service discovery"); n != 1 {
				t.Errorf("the registry error is in the report %d times, want once:\n%s", n, stdout)
			}
			if got := strings.HasSuffix(stdout, "\n5 items left out; --show-all lists them\n"); got != tt.leftOut {
				t.Errorf("ends with what it left out: %v, want %v:\n%s", got, tt.leftOut, stdout)
			}
		})
	}
}

// TestResolveSumsUpAFailingHost checks that the lookups a registry host
// answers 503 are one line, in the report and in the error: how many
// failed (8: items of one address share a lookup) and how, with one URL
// path as an example.
func TestResolveSumsUpAFailingHost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/terraform.json" {
			fmt.Fprint(w, `{"modules.v1": "/m/", "providers.v1": "/p/"}`)
			return
		}
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	code, stdout, stderr := runCLI(t, "", "resolve", "--registry-url", srv.URL, "--retries", "0", "--lock-file", "-", resolveExample)
	if code != exitFailure {
		t.Fatalf("exit %d, want %d: %s", code, exitFailure, stderr)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	line := " (11 items): " + host + " answered 503 Service Unavailable to 8 lookups, such as GET /m/"
	mustContain(t, "stdout", unwrapText(stdout), []string{"\nProblems:\n  modules consul, consul_beta, consul_next, eks, vpc, network.vpc and 5 more" + line})
	mustContain(t, "stderr", stderr, []string{"could not be listed:\n  modules \"consul\"", line})
	if n := strings.Count(stderr, "answered 503"); n != 1 {
		t.Errorf("stderr tells the host's answer %d times, want once:\n%s", n, stderr)
	}
}

// mustContain fails t for each text of want that out, a command's stdout
// or stderr as name says, lacks.
func mustContain(t *testing.T, name, out string, want []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q:\n%s", name, w, out)
		}
	}
}

// prerel runs with a soft memory limit of its own unless GOMEMLIMIT is
// set, which then decides.
func TestLimitMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, tt := range []struct {
		gomemlimit string
		want       int64
	}{
		{"", defaultMemoryLimit},
		{"1GiB", 12345},
		{"off", 12345},
	} {
		debug.SetMemoryLimit(12345)
		limitMemory(func(k string) string {
			if k == "GOMEMLIMIT" {
				return tt.gomemlimit
			}
			return ""
		})
		if got := debug.SetMemoryLimit(-1); got != tt.want {
			t.Errorf("GOMEMLIMIT=%q: memory limit %d, want %d", tt.gomemlimit, got, tt.want)
		}
	}
}
