package resolve_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/registry"
	"github.com/prerel/prerel/updaters"
)

// TestAddUpdater resolves the example configuration and adds Renovate:
// its selection within a constraint that names a prerelease is one that
// init refuses, and the report says so in every format.
func TestAddUpdater(t *testing.T) {
	rep, err := runResolve(context.Background(), resolve.Options{Dir: exampleDir, Config: exampleConfig(t), Versions: exampleIndex(t), Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.AddUpdater(updaters.Renovate{}, testRegistry); err != nil {
		t.Fatal(err)
	}
	u := rep.Updater
	if u == nil || u.Name != "renovate" || len(u.Items) == 0 {
		t.Fatalf("no updater report: %+v", u)
	}
	byName := map[string]resolve.UpdaterItem{}
	for _, it := range u.Items {
		byName[string(it.Kind)+" "+it.Name] = it
	}
	consul := byName["module consul"]
	if consul.Selects == nil || *consul.Selects != "1.2.9" || consul.Installs != nil {
		t.Errorf("module consul: selects %v, installs %v; want 1.2.9 and none", consul.Selects, consul.Installs)
	}
	if len(consul.Disagreements) != 1 || !strings.Contains(consul.Disagreements[0], "init refuses 1.2.9") {
		t.Errorf("module consul: disagreements %q", consul.Disagreements)
	}
	vpc := byName["module vpc"]
	if vpc.Selects == nil || vpc.Installs == nil || *vpc.Selects != *vpc.Installs || len(vpc.Disagreements) != 0 {
		t.Errorf("module vpc: %+v, want the same version on both sides", vpc)
	}
	if vpc.Proposes == nil || *vpc.Proposes != "6.6.0" {
		t.Errorf("module vpc: proposes %v, want 6.6.0 (the newest release above 5.21.0)", vpc.Proposes)
	}
	if u.Disagreements != 2 {
		t.Errorf("%d items disagree, want 2", u.Disagreements)
	}
	var text, js bytes.Buffer
	if err := resolve.Render(&text, report.Text, rep, report.Options{ShowAll: true}); err != nil {
		t.Fatal(err)
	}
	// The lists wrap at 80 columns, a line's continuation indented by 4.
	unwrapped := strings.ReplaceAll(text.String(), "\n    ", " ")
	for _, want := range []string{
		"Updater renovate versus terraform init (2 of 11 disagree):\n  module consul (~> 1.2.0-rc1): renovate selects 1.2.9, proposes 2.0.3; init installs none; ! init refuses 1.2.9, which renovate selects\n",
		"  module vpc (~> 5.1): renovate selects 5.21.0, proposes 6.6.0; init installs 5.21.0\n",
	} {
		if !strings.Contains(unwrapped, want) {
			t.Errorf("the text report lacks %q:\n%s", want, text.String())
		}
	}
	if err := resolve.Render(&js, report.JSON, rep, report.Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"updater": {`) || !strings.Contains(js.String(), `"disagreements": 2`) {
		t.Errorf("the JSON report lacks the updater:\n%s", js.String())
	}
}

func TestAddUpdaterNeedsItsArguments(t *testing.T) {
	var rep *resolve.Report
	if err := rep.AddUpdater(updaters.Dependabot{}, testRegistry); err == nil {
		t.Error("AddUpdater on a nil report: no error")
	}
}

// TestAddUpdaterLockEntry resolves a provider whose "~> 4" Renovate reads
// as ">=4": the lock entry it writes, 5.0.0, is one init rejects, and the
// report says so in those words.
func TestAddUpdaterLockEntry(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.tf", "terraform {\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \"~> 4\"\n    }\n  }\n}\n")
	write("index.json", `{"providers": {"hashicorp/aws": {"versions": [{"version": "4.1.0"}, {"version": "5.0.0"}]}}}`)
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := policyconfig.New(testRegistry)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.AddUpdater(updaters.Renovate{}, testRegistry); err != nil {
		t.Fatal(err)
	}
	if len(rep.Updater.Items) != 1 {
		t.Fatalf("updater items: %+v", rep.Updater.Items)
	}
	it := rep.Updater.Items[0]
	if it.Selects == nil || *it.Selects != "5.0.0" || it.Installs == nil || *it.Installs != "4.1.0" {
		t.Fatalf("selects %v, installs %v; want 5.0.0 and 4.1.0", it.Selects, it.Installs)
	}
	if len(it.Disagreements) == 0 || it.Disagreements[0] != "init rejects the lock entry 5.0.0, which renovate writes" {
		t.Errorf("disagreements %q", it.Disagreements)
	}
}
