package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry/registrytest"
)

// Tree writes the root module of the end-to-end test: a local module
// whose own call names a registry module, two registry modules called
// from the root, one of which calls another registry module (a child
// module's call), and a provider required by the root and the local
// module.
func Tree(e *registrytest.Env) {
	e.Reg.Module("net", "1.0.0", "1.1.0", "2.0.0-beta.1", "2.0.0-beta.2")
	e.Reg.Module("db", "1.0.0", "1.1.0", "1.2.0-rc.1")
	e.Reg.Module("inner", "0.9.0", "1.0.0-beta.1", "1.0.0-beta.2")
	e.Reg.Module("app", "3.0.0", "3.1.0-beta.1")
	e.Reg.Content("app", func(v string) string {
		return fmt.Sprintf("module \"inner\" {\n  source  = %q\n  version = \">= 1.0.0-beta.1\"\n}\n\noutput \"version\" {\n  value = %q\n}\n", registrytest.Host+"/corp/inner/aws", v)
	})
	e.Reg.Providers("1.0.0", "1.1.0", "2.0.0-beta1")
	req := func(c string) string {
		return fmt.Sprintf("terraform {\n  required_providers {\n    thing = {\n      source  = %q\n      version = %q\n    }\n  }\n}\n\n", registrytest.Provider, c)
	}
	e.Write(filepath.Join(e.Root, "main.tf"), req(">= 1.1.0")+fmt.Sprintf(
		"module \"local\" {\n  source = \"./local\"\n}\n\nmodule \"db\" {\n  source  = %q\n  version = \"~> 1.1\"\n}\n\nmodule \"app\" {\n  source  = %q\n  version = \">= 3.0.0\"\n}\n",
		registrytest.Host+"/corp/db/aws", registrytest.Host+"/corp/app/aws"))
	e.Write(filepath.Join(e.Root, "local", "main.tf"), req(">= 1.0.0")+fmt.Sprintf(
		"module \"net\" {\n  source  = %q\n  version = \"~> 2.0.0-beta.1\"\n}\n", registrytest.Host+"/corp/net/aws"))
}

// choice is the prerel.hcl of ChosenPolicies: today's module rule for
// the calls it does not name.
const choice = `default_policy = %q

module "local.net" {
  policy = "cargo"
}

module "db" {
  policy = "linear"
}

module "app.inner" {
  policy = "cargo"
}

provider "registry.prerel.test/corp/thing" {
  policy = "linear"
}
`

// ChosenPolicies: with prerel.hcl and no override file, the patched
// init installs exactly what resolve says the chosen policies select,
// for a local module's call, registry modules, a registry module's own
// call and a provider two modules require; plan finds the installed
// modules and the locked provider acceptable, where the release's plan
// refuses them; a later init keeps them, even once the registry lists a
// version the policy would prefer, and init -upgrade takes that one.
func ChosenPolicies(t *testing.T, inst Installer) {
	bin := inst.Patched(t)
	e := registrytest.NewEnv(t)
	Tree(e)
	e.Write(filepath.Join(e.Root, "prerel.hcl"), fmt.Sprintf(choice, inst.TodayModule))
	data := filepath.Join(e.Tmp, "data")
	e.MustInit(bin, data)

	got := registrytest.Installed(t, data)
	got[registrytest.Provider] = e.Locked()
	want := Resolved(t, e, data, inst.Release)
	t.Logf("installed %s", MapString(got))
	if MapString(got) != MapString(want) {
		t.Fatalf("the patched init installed\n  %s\nresolve --installer %s says the chosen policies select\n  %s", MapString(got), inst.Release, MapString(want))
	}
	// What the chosen policies select here differs from today's rule
	// for every call the file names, so the test proves the patch acts.
	for k, v := range map[string]string{"local.net": "2.0.0-beta.2", "db": "1.2.0-rc.1", "app": "3.0.0", "app.inner": "1.0.0-beta.2", registrytest.Provider: "2.0.0-beta1"} {
		if got[k] != v {
			t.Errorf("%s: installed %q, want %q", k, got[k], v)
		}
	}

	// plan: the loader's check of the installed modules and the check of
	// the lock file against the configuration pass; what is left is the
	// test provider, which is not a real plugin and cannot start.
	out, _ := e.Run(bin, data, "plan", "-input=false", "-no-color")
	for _, bad := range []string{"Module version requirements have changed", "Inconsistent dependency lock file", "doesn't match", "don't match", "Module not installed"} {
		if strings.Contains(out, bad) {
			t.Errorf("plan refused what init installed (%q):\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "thing") {
		t.Errorf("plan did not reach the provider:\n%s", out)
	}
	if rel := inst.ReleaseBinary(); rel != "" {
		// The release refuses the same installation: the re-checks are the
		// patch's doing.
		out, _ := e.Run(rel, data, "plan", "-input=false", "-no-color")
		if !strings.Contains(out, "Module version requirements have changed") && !strings.Contains(out, "match") {
			t.Errorf("the release's plan accepted the chosen policies' installation:\n%s", out)
		}
	}

	// A later init keeps the installation, even with a newer version
	// the policy would select now.
	e.Reg.Publish("net", "2.0.0-beta.3")
	e.MustInit(bin, data)
	again := registrytest.Installed(t, data)
	again[registrytest.Provider] = e.Locked()
	if MapString(again) != MapString(got) {
		t.Errorf("a later init installed\n  %s\nwant it kept\n  %s", MapString(again), MapString(got))
	}
	// -upgrade takes the newer one.
	e.MustInit(bin, data, "-upgrade")
	if v := registrytest.Installed(t, data)["local.net"]; v != "2.0.0-beta.3" {
		t.Errorf("init -upgrade installed local.net %q, want 2.0.0-beta.3", v)
	}
}

// WithoutConfig: without prerel.hcl the patched init installs what the
// release installs, on the same tree, and fails where it fails.
func WithoutConfig(t *testing.T, inst Installer) {
	bin := inst.Patched(t)
	rel := inst.ReleaseBinary()
	if rel == "" {
		t.Skipf("no release %s to compare with: %s builds it", inst.Release, inst.Build)
	}
	e := registrytest.NewEnv(t)
	Tree(e)
	var results [2]string
	for i, b := range []string{bin, rel} {
		data := filepath.Join(e.Tmp, fmt.Sprint("data", i))
		os.Remove(filepath.Join(e.Root, config.LockFileName))
		out, err := e.Init(b, data)
		got := registrytest.Installed(t, data)
		if got == nil {
			got = map[string]string{}
		}
		got[registrytest.Provider] = e.Locked()
		got["error"] = fmt.Sprint(err != nil)
		results[i] = MapString(got) + " | " + strings.Join(ErrorLines(out), "; ")
	}
	t.Logf("release: %s", results[1])
	if results[0] != results[1] {
		t.Errorf("without prerel.hcl\n  patched: %s\n  release: %s", results[0], results[1])
	}
}
