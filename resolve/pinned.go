package resolve

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/terraform/address"
	"github.com/prerel/prerel/terraform/config"
)

// Pinned is a pin a program wrote for an item in a file the
// configuration was read without (Options.SkipFile: prerel pin's
// override files), which init installs whatever the item's constraint
// asks.
type Pinned struct {
	// Version is the pinned version; File the file, relative to the root
	// directory, and Line the line of the version.
	Version string `json:"version"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	// Stale is set when the pin is not what the item's chosen policy (or
	// wanted version) selects now for the configuration's own
	// constraint: prerel pin would rewrite it.
	Stale bool `json:"stale"`
	// Range is the version's place, its file as it was opened (see
	// Item.Range).
	Range hcl.Range `json:"-"`
}

// pinSet is the pins read from the skipped files: module pins by call
// path, provider pins (the root module's) by address.
type pinSet struct {
	modules   map[string]Pinned
	providers map[string]Pinned
}

var (
	pinRootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "module", LabelNames: []string{"name"}},
	}}
	pinTerraformSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "required_providers"}}}
	pinModuleSchema    = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "version"}}}
)

// readPins reads the pins of the override files skip leaves out, in every
// local module directory of tree. A file that cannot be read or parsed
// holds no pin that can be named: its problem is a warning.
func readPins(tree *config.Tree, skip func(string) bool, rel func(hcl.Range) string) (pinSet, []note) {
	set := pinSet{modules: map[string]Pinned{}, providers: map[string]Pinned{}}
	if skip == nil {
		return set, nil
	}
	var warnings []note
	for _, n := range tree.Nodes {
		if n.Remote() || n.Module == nil {
			continue
		}
		entries, err := os.ReadDir(n.Dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			path := filepath.Join(n.Dir, e.Name())
			if !IsOverrideFile(e.Name()) || !skip(path) {
				continue
			}
			src, err := safefile.Read(path, safefile.ConfigLimit)
			if err != nil {
				warnings = append(warnings, note{text: fmt.Sprintf("the pins of %s are not shown: %v", rel(hcl.Range{Filename: path}), err), at: hcl.Range{Filename: path}})
				continue
			}
			f, diags := hclread.ParseHCL(src, path)
			if diags.HasErrors() || f == nil {
				warnings = append(warnings, note{text: fmt.Sprintf("the pins of %s are not shown: %s", rel(hcl.Range{Filename: path}), diags.Error()), at: hcl.Range{Filename: path}})
				continue
			}
			readPinFile(f.Body, n, rel, &set)
		}
	}
	return set, warnings
}

// IsOverrideFile reports whether Terraform or OpenTofu reads a file by
// this name as an override file.
func IsOverrideFile(name string) bool {
	for _, ext := range []string{".tofu.json", ".tf.json", ".tofu", ".tf"} {
		if stem, ok := strings.CutSuffix(name, ext); ok {
			return stem == "override" || strings.HasSuffix(stem, "_override")
		}
	}
	return false
}

// OverrideEntry is a literal version an override file sets: a module
// call's (Name is the call's label) or a required_providers entry's (Name
// is the local name, Source the source address).
type OverrideEntry struct {
	Kind                  Kind
	Name, Source, Version string
	// Range is the version's place.
	Range hcl.Range
}

// OverrideEntries returns the literal versions an override file's body
// sets, as prerel pin writes them: each module block's version, and each
// required_providers entry with a source and a version. Anything else is
// left out.
func OverrideEntries(body hcl.Body) []OverrideEntry {
	content, _, _ := body.PartialContent(pinRootSchema)
	if content == nil {
		return nil
	}
	var out []OverrideEntry
	for _, b := range content.Blocks {
		switch b.Type {
		case "module":
			c, _, _ := b.Body.PartialContent(pinModuleSchema)
			if c == nil || c.Attributes["version"] == nil {
				continue
			}
			a := c.Attributes["version"]
			if v, ok := stringValue(a.Expr); ok {
				out = append(out, OverrideEntry{Kind: KindModule, Name: b.Labels[0], Version: v, Range: a.Expr.Range()})
			}
		case "terraform":
			tc, _, _ := b.Body.PartialContent(pinTerraformSchema)
			if tc == nil {
				continue
			}
			for _, rp := range tc.Blocks {
				attrs, _ := rp.Body.JustAttributes()
				for name, a := range attrs {
					v, diags := a.Expr.Value(nil)
					if diags.HasErrors() || !v.Type().IsObjectType() || !v.Type().HasAttribute("source") || !v.Type().HasAttribute("version") {
						continue
					}
					src, ver := v.GetAttr("source"), v.GetAttr("version")
					if src.Type() != cty.String || ver.Type() != cty.String || src.IsNull() || ver.IsNull() || !src.IsKnown() || !ver.IsKnown() {
						continue
					}
					out = append(out, OverrideEntry{Kind: KindProvider, Name: name, Source: src.AsString(), Version: ver.AsString(), Range: a.Expr.Range()})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b OverrideEntry) int { return strings.Compare(string(a.Kind)+a.Name, string(b.Kind)+b.Name) })
	return out
}

// readPinFile records the module versions and, in the root module, the
// provider versions one file pins.
func readPinFile(body hcl.Body, n *config.Node, rel func(hcl.Range) string, set *pinSet) {
	for _, e := range OverrideEntries(body) {
		switch {
		case e.Kind == KindModule:
			set.modules[strings.Join(append(slices.Clone(n.Path), e.Name), ".")] = pinnedAt(e.Version, e.Range, rel)
		case n.Parent == nil: // pin writes provider pins in the root module
			if p, err := address.ParseProvider(e.Source); err == nil {
				set.providers[address.ProviderKey(p)] = pinnedAt(e.Version, e.Range, rel)
			}
		}
	}
}

// stringValue returns a constant string expression's value.
func stringValue(e hcl.Expression) (string, bool) {
	v, diags := e.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

func pinnedAt(version string, r hcl.Range, rel func(hcl.Range) string) Pinned {
	file, _, _ := strings.Cut(rel(hcl.Range{Filename: r.Filename}), ":")
	return Pinned{Version: version, File: file, Line: r.Start.Line, Range: r}
}

// applyPins marks every item a pin holds, and whether the pin is stale.
func (r *Report) applyPins(set pinSet) {
	for i := range r.Items {
		it := &r.Items[i]
		var p Pinned
		var ok bool
		if it.Kind == KindModule {
			p, ok = set.modules[it.Name]
		} else {
			p, ok = set.providers[it.Address]
		}
		if !ok {
			continue
		}
		same := sameVersion(&p.Version, it.Selected) ||
			it.Selected != nil && strings.TrimPrefix(*it.Selected, "v") == strings.TrimPrefix(p.Version, "v")
		p.Stale = it.Status != StatusError && !same
		it.Pinned = &p
	}
}

// StalePins returns the items a pin holds at another version than the
// one their chosen policy (or wanted version) selects now; none for a nil
// report.
func (r *Report) StalePins() []Item {
	if r == nil {
		return nil
	}
	var out []Item
	for _, it := range r.Items {
		if it.Pinned != nil && it.Pinned.Stale {
			out = append(out, it)
		}
	}
	return out
}

// pinnedSection lists the items pins hold: the pin and its file, over the
// configuration's own constraint, and what the chosen policy selects now
// when the pin is stale.
func (r *Report) pinnedSection(code, text func(string) string) section {
	s := section{title: "Pinned by prerel pin (init installs the pin, not the constraint)"}
	for i := range r.Items {
		it := &r.Items[i]
		p := it.Pinned
		if p == nil {
			continue
		}
		line := fmt.Sprintf("%s %s: %s in %s, over %s", it.Kind, code(it.Name), code(p.Version), text(fmt.Sprintf("%s:%d", p.File, p.Line)), code(it.BriefConstraint()))
		if p.Stale {
			line += fmt.Sprintf("; stale: %s now selects %s: run prerel pin", text(it.policyCell()), code(it.selectedCell()))
		}
		s.lines = append(s.lines, line)
	}
	return s
}
