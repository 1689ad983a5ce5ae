package resolve_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/registry"
)

// bots are the readers the catalogue groups with the updaters.
func bots(t *testing.T) []resolve.Reader {
	t.Helper()
	var out []resolve.Reader
	for _, name := range []string{"renovate", "dependabot", "terraform-module-versions"} {
		p, ok := testRegistry.Lookup(name)
		if !ok {
			t.Fatalf("no policy %s", name)
		}
		out = append(out, resolve.Reader{Name: name, Policy: p, ModulesOnly: name == "terraform-module-versions"})
	}
	return out
}

// TestReadersEKS says, for the terraform-aws-eks tree, what every reader
// selects: every item where they differ is named, within 80 columns,
// each reader's answer in the JSON.
func TestReadersEKS(t *testing.T) {
	r := eksReport(t)
	if err := r.AddReaders(bots(t)); err != nil {
		t.Fatal(err)
	}
	if want := []string{"terraform@1.16.4", "tofu@1.12.6", "renovate", "dependabot", "terraform-module-versions"}; strings.Join(r.Readers, ",") != strings.Join(want, ",") {
		t.Errorf("readers %q, want %q", r.Readers, want)
	}
	differ := 0
	for _, it := range r.Items {
		if it.Readers == nil {
			continue
		}
		seen := map[string]bool{}
		for _, n := range r.Readers {
			rd := it.Readers[n]
			if n == "terraform-module-versions" && it.Kind == resolve.KindProvider {
				continue
			}
			s := "none"
			if rd.Selects != nil {
				s = *rd.Selects
			} else if rd.Note != "" {
				s = rd.Note
			}
			seen[s] = true
		}
		if len(seen) > 1 {
			differ++
		}
	}
	var b bytes.Buffer
	if err := resolve.Render(&b, report.Text, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "golden", "eks-readers.txt"), b.Bytes())
	out := b.String()
	if !strings.Contains(out, "What each reader selects (") {
		t.Fatalf("no readers section:\n%s", out)
	}
	section := out[strings.Index(out, "What each reader selects ("):]
	section = section[:strings.Index(section, "\n\n")]
	if named := strings.Count(section, "\n  "); named < differ {
		t.Errorf("%d items differ, the section names %d lines:\n%s", differ, named, section)
	}
	for i, l := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(l) > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, utf8.RuneCountInString(l), l)
		}
	}
	b.Reset()
	if err := resolve.Render(&b, report.JSON, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"readers": {`) || !strings.Contains(b.String(), `"terraform@1.16.4": {`) {
		t.Errorf("the JSON has no readers per item")
	}
}

// refuser refuses every constraint that holds "!=", as Renovate skips a
// dependency whose constraint it cannot read.
type refuser struct{ engine.Policy }

func (refuser) Name() string { return "refuser" }
func (r refuser) Compile(c string) (engine.Matcher, error) {
	if strings.Contains(c, "!=") {
		return nil, errString("!= is unsupported")
	}
	return r.Policy.Compile(c)
}

type errString string

func (e errString) Error() string { return string(e) }

// TestReaderSkips shows a reader that refuses a constraint as skipping
// it, with its reason, and counts the item as one where readers differ.
func TestReaderSkips(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"main.tf":    "module \"app\" {\n  source  = \"corp/app/aws\"\n  version = \"!= 1.1.0, < 2.0.0\"\n}\n",
		"index.json": `{"modules": {"corp/app/aws": ` + moduleBody("1.0.0", "1.1.0", "1.5.0") + `}}`,
	})
	r := runDir(t, dir)
	hashicorp, _ := testRegistry.Lookup("hashicorp")
	if err := r.AddReaders([]resolve.Reader{{Name: "refuser", Policy: refuser{hashicorp}}}); err != nil {
		t.Fatal(err)
	}
	rd := r.Items[0].Readers["refuser"]
	if rd.Selects != nil || rd.Note != "skipped: != is unsupported" {
		t.Errorf("reading %+v", rd)
	}
	var b bytes.Buffer
	if err := resolve.Render(&b, report.Text, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	if want := "(1 of 1 items differ):\n  module app (!= 1.1.0, < 2.0.0): 1.5.0: terraform@1.16.4, tofu@1.12.6; skipped:\n    != is unsupported: refuser"; !strings.Contains(b.String(), want) {
		t.Errorf("the text report does not say %q:\n%s", want, b.String())
	}
}

// runDir resolves dir with its index.json and the built-in default
// policy.
func runDir(t *testing.T, dir string) *resolve.Report {
	t.Helper()
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := resolve.Run(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, dir), Versions: x, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
