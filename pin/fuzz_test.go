package pin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	tfaddr "github.com/hashicorp/terraform-registry-address"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
)

// fuzzListing is a registry.Source that lists the same versions for
// every module and provider.
type fuzzListing []string

func (l fuzzListing) ModuleVersions(context.Context, tfaddr.ModulePackage) (*registry.Listing, error) {
	return &registry.Listing{Versions: l, From: "fuzz"}, nil
}

func (l fuzzListing) ProviderVersions(context.Context, tfaddr.Provider) (*registry.Listing, error) {
	return &registry.Listing{Versions: l, From: "fuzz"}, nil
}

func (fuzzListing) String() string { return "the fuzz listing" }

// fuzzJSONConfig writes the same root module as fuzzConfig in
// main.tf.json, where any string may be a name.
func fuzzJSONConfig(t *testing.T, modName, modSource, constraint, provName, provSource, alias string) string {
	entry := map[string]any{"source": provSource, "version": constraint}
	if alias != "" {
		entry["configuration_aliases"] = []string{provName + "." + alias}
	}
	src, err := json.Marshal(map[string]any{
		"module":    map[string]any{modName: map[string]any{"source": modSource, "version": constraint}},
		"terraform": map[string]any{"required_providers": map[string]any{provName: entry}},
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf.json"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fuzzConfig writes a root module with one module call and one
// required_providers entry made of the fuzzer's strings, as a user could
// write them (every string a quoted HCL string, the names as HCL has
// them), and returns its directory.
func fuzzConfig(t *testing.T, modName, modSource, constraint, provName, provSource, alias string) string {
	f := hclwrite.NewEmptyFile()
	mod := f.Body().AppendNewBlock("module", []string{modName}).Body()
	mod.SetAttributeValue("source", cty.StringVal(modSource))
	mod.SetAttributeValue("version", cty.StringVal(constraint))
	attrs := []hclwrite.ObjectAttrTokens{
		{Name: hclwrite.TokensForIdentifier("source"), Value: hclwrite.TokensForValue(cty.StringVal(provSource))},
		{Name: hclwrite.TokensForIdentifier("version"), Value: hclwrite.TokensForValue(cty.StringVal(constraint))},
	}
	if alias != "" {
		ref := hcl.Traversal{hcl.TraverseRoot{Name: provName}, hcl.TraverseAttr{Name: alias}}
		attrs = append(attrs, hclwrite.ObjectAttrTokens{Name: hclwrite.TokensForIdentifier("configuration_aliases"),
			Value: hclwrite.TokensForTuple([]hclwrite.Tokens{hclwrite.TokensForTraversal(ref)})})
	}
	key := hclwrite.TokensForIdentifier(provName)
	if !hclsyntax.ValidIdentifier(provName) {
		key = hclwrite.TokensForValue(cty.StringVal(provName))
	}
	rp := f.Body().AppendNewBlock("terraform", nil).Body().AppendNewBlock("required_providers", nil).Body()
	entry := append(key, &hclwrite.Token{Type: hclsyntax.TokenEqual, Bytes: []byte("=")})
	entry = append(entry, hclwrite.TokensForObject(attrs)...)
	rp.AppendUnstructuredTokens(append(entry, &hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")}))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), f.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// FuzzOverrideFile feeds arbitrary module names, sources, constraints,
// listed versions, provider names, sources and configuration aliases,
// the chosen policy and the command a file's header names, through the
// public path: a configuration made of them (main.tf, or main.tf.json
// where a name may be any string), resolve.Run, Build, Write.
// Input is refused with an error, or every file written parses back with
// hcl/v2 and holds exactly the planned pins (a module block with the
// version alone, a required_providers entry with the source, version and
// aliases), and the configuration read back with the files says the
// planned versions.
func FuzzOverrideFile(f *testing.F) {
	names := policies.Names()
	f.Add(false, uint8(slices.Index(names, "linear")), "net", "corp/net/aws", ">= 1.0", "2.0.0-beta.1", "thing", "corp/thing", "east", "")
	f.Add(false, uint8(slices.Index(names, "linear")), "net", "registry.example.com/corp/net/aws", "~> 1.0", "1.1.0,2.0.0-rc.1", "aws", "hashicorp/aws", "", "prerel pin --policy linear")
	f.Add(false, uint8(slices.Index(names, "hashicorp")), "a_b-c", "corp/net/aws", ">= 1.0", "v9", "thing", "corp/thing", "", "")
	f.Add(false, uint8(slices.Index(names, "any-pre")), "net", "corp/net/aws", ">= 1.0-0", "1.0.1-\"${x}\"", "thing", "corp/thing", "", "x\n}\nmodule \"y\" {\n")
	f.Add(false, uint8(slices.Index(names, "any-pre")), "net", "corp/net/aws", ">= 1.0-0", "1.0.1-\"${x}\",1.0.2-%{if}\\n", "thing", "corp/thing", "west", "prerel pin")
	f.Add(false, uint8(slices.Index(names, "linear")), "a.b", "corp/net/aws", ">= 1.0", "2.0.0-beta.1", "th.ing", "corp/thing", "", "")
	f.Fuzz(func(t *testing.T, asJSON bool, policy uint8, modName, modSource, constraint, listed, provName, provSource, alias, command string) {
		for _, s := range []string{modName, modSource, constraint, listed, provName, provSource, alias, command} {
			if len(s) > 200 {
				return // short strings reach every branch; keep each run fast
			}
		}
		versions := append([]string{"1.0.0"}, strings.Split(listed, ",")...)
		if len(versions) > 8 {
			return
		}
		cfg, err := policyconfig.New(policies)
		if err != nil {
			t.Fatal(err)
		}
		if diags := cfg.SetDefault(names[int(policy)%len(names)], policyconfig.FlagOrigin("--policy")); diags.HasErrors() {
			t.Fatal(diags)
		}
		write := fuzzConfig
		if asJSON {
			write = fuzzJSONConfig
		}
		dir := write(t, modName, modSource, constraint, provName, provSource, alias)
		rep, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: fuzzListing(versions),
			Policies: policies, SkipFile: pin.Skip, Concurrency: 1})
		if err != nil {
			t.Logf("resolve refuses: %v", err)
			return
		}
		tree, diags := config.LoadTree(dir, config.TreeOptions{SkipFile: pin.Skip})
		if diags.HasErrors() {
			t.Logf("the tree does not read: %v", diags)
			return
		}
		p, err := pin.Build(rep, tree, pin.Options{Policies: policies, Command: command})
		if err != nil {
			t.Logf("Build refuses: %v", err)
			return
		}
		t.Logf("%d pins, %d unpinned, %d files", len(p.Pins), len(p.Unpinned), len(p.Files))
		for _, file := range p.Files {
			checkOverrideFile(t, file, p.Pins)
		}
		if err := pin.Write(p, pin.WriteOptions{}); err != nil {
			t.Fatalf("Write of a plan Build made: %v", err)
		}
		// Read back with the override files, as init reads them.
		back, diags := config.LoadTree(dir, config.TreeOptions{})
		if diags.HasErrors() {
			t.Fatalf("the configuration with the files written does not read: %v\n%s", diags, filesOf(p))
		}
		for _, x := range p.Pins {
			switch x.Kind {
			case resolve.KindModule:
				var got []string
				for _, c := range back.Root.Module.ModuleCalls {
					if c.Name == x.Name {
						got = append(got, c.Version)
					}
				}
				if len(got) != 1 || got[0] != x.Version {
					t.Errorf("read back, module call %q has versions %q, want %q\n%s", x.Name, got, x.Version, filesOf(p))
				}
			case resolve.KindProvider:
				var got []*config.ProviderRequirement
				for _, r := range back.Root.Module.Providers {
					if r.LocalName == x.Name {
						got = append(got, r)
					}
				}
				if len(got) != 1 || got[0].Source != x.Source || got[0].Constraint() != x.Version || !slices.Equal(got[0].ConfigurationAliases, x.Aliases) {
					t.Errorf("read back, provider %q is %+v, want source %q, version %q, aliases %q\n%s", x.Name, got, x.Source, x.Version, x.Aliases, filesOf(p))
				}
			}
		}
	})
}

func filesOf(p *pin.Plan) string {
	var b strings.Builder
	for _, f := range p.Files {
		fmt.Fprintf(&b, "--- %s\n%s", f.Rel, f.Content)
	}
	return b.String()
}

// checkOverrideFile parses a planned file with hcl/v2 and finds in it
// exactly its pins: a module block per module pin with the version
// alone, and one terraform block whose required_providers holds an entry
// per provider pin with the source, the version and the aliases.
func checkOverrideFile(t *testing.T, file pin.File, pins []pin.Pin) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s\n%s", file.Rel, fmt.Sprintf(format, args...), file.Content)
	}
	if !strings.HasPrefix(file.Content, pin.HeaderPrefix) {
		fail("no header")
	}
	parsed, diags := hclsyntax.ParseConfig([]byte(file.Content), file.Rel, hcl.InitialPos)
	if diags.HasErrors() {
		fail("does not parse: %v", diags)
	}
	body := parsed.Body.(*hclsyntax.Body)
	if len(body.Attributes) != 0 {
		fail("top-level attributes %v", body.Attributes)
	}
	var modules, providers []pin.Pin
	for _, x := range pins {
		if x.File != file.Rel {
			continue
		}
		if x.Kind == resolve.KindModule {
			modules = append(modules, x)
		} else {
			providers = append(providers, x)
		}
	}
	var terraform []*hclsyntax.Block
	seen := 0
	for _, blk := range body.Blocks {
		switch blk.Type {
		case "module":
			if len(blk.Labels) != 1 || seen >= len(modules) {
				fail("module block %q is not planned", blk.Labels)
			}
			x := modules[seen]
			seen++
			if want := x.Name[strings.LastIndex(x.Name, ".")+1:]; blk.Labels[0] != want {
				fail("module block %q for the pin of %q", blk.Labels[0], x.Name)
			}
			if len(blk.Body.Blocks) != 0 || len(blk.Body.Attributes) != 1 {
				fail("module %q holds more than its version", blk.Labels[0])
			}
			if got := stringAttr(t, blk.Body.Attributes["version"]); got != x.Version {
				fail("module %q says version %q, the plan %q", blk.Labels[0], got, x.Version)
			}
		case "terraform":
			terraform = append(terraform, blk)
		default:
			fail("a %s block", blk.Type)
		}
	}
	if seen != len(modules) {
		fail("%d module blocks for %d module pins", seen, len(modules))
	}
	if len(providers) == 0 {
		if len(terraform) != 0 {
			fail("a terraform block and no provider pin")
		}
		return
	}
	if len(terraform) != 1 || len(terraform[0].Body.Attributes) != 0 || len(terraform[0].Body.Blocks) != 1 || terraform[0].Body.Blocks[0].Type != "required_providers" {
		fail("the terraform block is not one required_providers block")
	}
	rp := terraform[0].Body.Blocks[0].Body
	if len(rp.Blocks) != 0 || len(rp.Attributes) != len(providers) {
		fail("required_providers holds %d entries for %d provider pins", len(rp.Attributes), len(providers))
	}
	for _, x := range providers {
		attr := rp.Attributes[x.Name]
		if attr == nil {
			fail("no required_providers entry %q", x.Name)
		}
		obj, ok := attr.Expr.(*hclsyntax.ObjectConsExpr)
		if !ok {
			fail("entry %q is not an object", x.Name)
		}
		got := map[string]hcl.Expression{}
		for _, item := range obj.Items {
			k := hcl.ExprAsKeyword(item.KeyExpr)
			if k == "" || got[k] != nil {
				fail("entry %q has a key that is not one keyword", x.Name)
			}
			got[k] = item.ValueExpr
		}
		want := 2
		if len(x.Aliases) > 0 {
			want = 3
		}
		if len(got) != want || got["source"] == nil || got["version"] == nil {
			fail("entry %q has keys %v", x.Name, slices.Sorted(func(yield func(string) bool) {
				for k := range got {
					if !yield(k) {
						return
					}
				}
			}))
		}
		if s := stringExpr(t, got["source"]); s != x.Source {
			fail("entry %q says source %q, the plan %q", x.Name, s, x.Source)
		}
		if v := stringExpr(t, got["version"]); v != x.Version {
			fail("entry %q says version %q, the plan %q", x.Name, v, x.Version)
		}
		if len(x.Aliases) > 0 {
			list, diags := hcl.ExprList(got["configuration_aliases"])
			if diags.HasErrors() || len(list) != len(x.Aliases) {
				fail("entry %q: configuration_aliases is not a list of %d: %v", x.Name, len(x.Aliases), diags)
			}
			for i, e := range list {
				tr, diags := hcl.AbsTraversalForExpr(e)
				if diags.HasErrors() {
					fail("entry %q: alias %d is not a reference: %v", x.Name, i, diags)
				}
				if s := traversalString(tr); s != x.Aliases[i] {
					fail("entry %q: alias %d is %q, the plan %q", x.Name, i, s, x.Aliases[i])
				}
			}
		}
	}
}

func stringAttr(t *testing.T, a *hclsyntax.Attribute) string {
	t.Helper()
	if a == nil {
		t.Fatal("no such attribute")
	}
	return stringExpr(t, a.Expr)
}

// stringExpr is the value of a string literal: a template with no
// interpolation, as the module installer reads a version.
func stringExpr(t *testing.T, e hcl.Expression) string {
	t.Helper()
	if len(e.Variables()) != 0 {
		t.Fatalf("%s: not a literal", e.Range())
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.Type().Equals(cty.String) || v.IsNull() {
		t.Fatalf("%s: not a string: %v", e.Range(), diags)
	}
	return v.AsString()
}

func traversalString(tr hcl.Traversal) string {
	var parts []string
	for _, s := range tr {
		switch s := s.(type) {
		case hcl.TraverseRoot:
			parts = append(parts, s.Name)
		case hcl.TraverseAttr:
			parts = append(parts, s.Name)
		default:
			parts = append(parts, fmt.Sprintf("%T", s))
		}
	}
	return strings.Join(parts, ".")
}
