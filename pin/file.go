package pin

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/resolve"
)

// HeaderPrefix starts the first line of every file pin writes, which
// goes on with the command that wrote it; three more lines follow (see
// Owned).
const HeaderPrefix = "# Written by prerel"

// header returns the comment that starts a written file.
func header(command string) string {
	return HeaderPrefix + " (" + command + ").\n" +
		"# These overrides make `terraform init` and `tofu init` install what\n" +
		"# the chosen prerelease policy selects. prerel rewrites and removes\n" +
		"# this file: choose policies in prerel.hcl instead of editing it.\n"
}

// Owned reports whether the file at path is one pin wrote: it is named
// FileName, it is a regular file (a symbolic link never is, whatever it
// links to), and it starts with the whole header pin writes, its four
// lines, whatever command the first names. Only the header is read, so
// that a file of any size is recognised. A file that does not exist is
// not pin's; a file that cannot be read is an error.
func Owned(path string) (bool, error) {
	if filepath.Base(path) != FileName {
		return false, nil
	}
	src, err := readHeader(path)
	if err != nil || src == nil {
		return false, err
	}
	return isHeader(src), nil
}

// Skip is Owned for resolve.Options.SkipFile and
// config.TreeOptions.SkipFile: it leaves out the files pin wrote; a file
// that cannot be read is not left out, so that the configuration reader
// reports it.
func Skip(path string) bool {
	own, _ := Owned(path)
	return own
}

// files renders the planned pins into one file per directory.
func (pl *planner) files() error {
	byFile := map[string][]Pin{}
	var order []string
	for _, p := range pl.plan.Pins {
		if byFile[p.File] == nil {
			order = append(order, p.File)
		}
		byFile[p.File] = append(byFile[p.File], p)
	}
	targets := map[string]target{}
	for _, d := range pl.plan.Dirs {
		targets[pl.users[d].file.rel] = pl.users[d].file
	}
	written := map[string]bool{}
	for _, rel := range order {
		t := targets[rel]
		written[rel] = true
		pins := byFile[rel]
		path := t.given
		if t.via != "" {
			path = t.path
		}
		content := render(pl.plan.Command, pins)
		if len(content) > safefile.ConfigLimit {
			return fmt.Errorf("pin: %s would be %s, more than the %s prerel reads of a configuration file: pin fewer calls there, or set their versions yourself",
				clip(rel), safefile.Size(int64(len(content))), safefile.Size(safefile.ConfigLimit))
		}
		pl.plan.Files = append(pl.plan.Files, File{Path: path, Rel: rel, Via: t.via, Module: pins[0].Module, Content: string(content)})
	}
	for _, d := range pl.plan.Dirs {
		u := pl.users[d]
		if written[u.file.rel] {
			continue
		}
		own, err := Owned(u.file.given)
		if err != nil {
			return err
		}
		switch {
		case own && u.refused != "":
			pl.refuse(u)
		case own:
			pl.plan.Stale = append(pl.plan.Stale, u.file.rel)
		}
	}
	return nil
}

// render writes the override file of pins with hclwrite: a module block
// per module call, with the version alone, and one terraform block with a
// required_providers entry per provider, with source, version and
// configuration_aliases, since Terraform replaces an entry whole.
func render(command string, pins []Pin) []byte {
	var b bytes.Buffer
	b.WriteString(header(command))
	var providers []Pin
	for _, p := range pins {
		if p.Kind != resolve.KindModule {
			providers = append(providers, p)
			continue
		}
		f := hclwrite.NewEmptyFile()
		label := p.Name[strings.LastIndex(p.Name, ".")+1:]
		blk := f.Body().AppendNewBlock("module", []string{label})
		blk.Body().SetAttributeValue("version", cty.StringVal(p.Version))
		b.WriteString("\n")
		b.WriteString(comment(p))
		b.Write(f.Bytes())
	}
	if len(providers) > 0 {
		f := hclwrite.NewEmptyFile()
		rp := f.Body().AppendNewBlock("terraform", nil).Body().AppendNewBlock("required_providers", nil).Body()
		b.WriteString("\n")
		for _, p := range providers {
			b.WriteString(comment(p))
			attrs := []hclwrite.ObjectAttrTokens{
				{Name: hclwrite.TokensForIdentifier("source"), Value: hclwrite.TokensForValue(cty.StringVal(p.Source))},
				{Name: hclwrite.TokensForIdentifier("version"), Value: hclwrite.TokensForValue(cty.StringVal(p.Version))},
			}
			if len(p.Aliases) > 0 {
				var refs []hclwrite.Tokens
				for _, a := range p.Aliases {
					refs = append(refs, hclwrite.TokensForTraversal(traversal(a)))
				}
				attrs = append(attrs, hclwrite.ObjectAttrTokens{Name: hclwrite.TokensForIdentifier("configuration_aliases"), Value: hclwrite.TokensForTuple(refs)})
			}
			rp.SetAttributeRaw(p.Name, hclwrite.TokensForObject(attrs))
		}
		b.Write(f.Bytes())
	}
	return hclwrite.Format(b.Bytes())
}

// traversal reads a provider reference such as "aws.east".
func traversal(ref string) hcl.Traversal {
	name, alias, ok := strings.Cut(ref, ".")
	t := hcl.Traversal{hcl.TraverseRoot{Name: name}}
	if ok {
		t = append(t, hcl.TraverseAttr{Name: alias})
	}
	return t
}

// comment says, above a pin, what it replaces.
func comment(p Pin) string {
	what := "module." + p.Name
	if p.Kind == resolve.KindProvider {
		what = "provider " + p.Source
	}
	constraint := quoted(elide.Middle(p.Constraint, maxQuoted))
	if p.WantedFrom != "" {
		return commentLines(fmt.Sprintf("%s: %s wanted (%s) for %s; today %s.", what, p.Version, elide.Middle(p.WantedFrom, maxQuoted), constraint, today(p)))
	}
	text := fmt.Sprintf("%s: %s selects %s for %s; today %s.", what, p.Policy, p.Version, constraint, today(p))
	if p.MinAge != "" {
		text += fmt.Sprintf(" Minimum age %s:", p.MinAge)
		if p.EligibleSince != nil {
			text += fmt.Sprintf(" %s eligible since %s.", p.Version, p.EligibleSince.UTC().Format(time.RFC3339))
		} else {
			text += fmt.Sprintf(" %s has no date (allow_undated).", p.Version)
		}
	}
	return commentLines(text)
}

// maxQuoted bounds the constraint a pin's comment quotes, in bytes, so
// that the file stays small however long the constraints are.
const maxQuoted = 200

// commentWidth is the width of the comment lines of a written file.
const commentWidth = 72

// commentLines writes text as comment lines of at most commentWidth
// columns (a longer word stands alone); outside text cannot end a
// comment line early, since every control character is a space.
func commentLines(text string) string {
	text = strings.Map(func(r rune) rune {
		if isControl(r) {
			return ' '
		}
		return r
	}, text)
	var b strings.Builder
	line := "#"
	for _, w := range strings.Fields(text) {
		if line != "#" && len(line)+1+len(w) > commentWidth {
			b.WriteString(line + "\n")
			line = "#"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
	return b.String()
}

// isControl reports whether r is an ASCII control character, which
// could end a comment line.
func isControl(r rune) bool { return r < ' ' || r == 0x7f }

func quoted(c string) string {
	if c == "" {
		return "no constraint"
	}
	return fmt.Sprintf("%q", c)
}

// today says what today's installers select: "1.4.0", or
// "terraform 1.4.0, tofu 1.3.0" when they differ.
func today(p Pin) string {
	t, o := orNone(p.Terraform), orNone(p.OpenTofu)
	if t == o || p.OpenTofu == nil && p.Kind == resolve.KindProvider {
		return t
	}
	return "terraform " + t + ", tofu " + o
}

func orNone(s *string) string {
	if s == nil {
		return "none"
	}
	return *s
}
