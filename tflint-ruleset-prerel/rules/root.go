package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/prerel/prerel/terraform/config"
)

// root is the root module tflint inspects, as the rules find it on disk.
type root struct {
	// wd is tflint's original working directory: the names of the files
	// tflint hands the plugin are relative to it.
	wd string
	// dir is the root module's directory, absolute; rel is it relative
	// to wd ("." or "envs/prod" under --chdir or --recursive).
	dir, rel string
	// today is the releases taken as today's (installers).
	today todayReleases
}

// rootOf returns the root module of the runner, and false when the runner
// inspects a called module (tflint's --call-module-type), which the rules
// leave alone: tflint keeps only the issues of a called module that lie in
// the root module's files, and the rules read the whole tree from the
// root.
func rootOf(r tflint.Runner) (*root, bool, error) {
	path, err := r.GetModulePath()
	if err != nil {
		return nil, false, err
	}
	if !path.IsRoot() {
		return nil, false, nil
	}
	wd, err := r.GetOriginalwd()
	if err != nil {
		return nil, false, err
	}
	files, err := r.GetFiles()
	if err != nil {
		return nil, false, err
	}
	// Every file of the module is in its directory; tflint names each
	// one relative to wd.
	rel := "."
	for _, name := range slices.Sorted(mapKeys(files)) {
		rel = filepath.Dir(name)
		break
	}
	dir := rel
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(wd, rel)
	}
	return &root{wd: wd, dir: dir, rel: rel}, true, nil
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// tflintRange returns r with its file named as tflint names it: relative
// to tflint's working directory.
func (rt *root) tflintRange(r hcl.Range) hcl.Range {
	if r.Filename != "" && filepath.IsAbs(r.Filename) {
		if name, err := filepath.Rel(rt.wd, r.Filename); err == nil {
			r.Filename = name
		}
	}
	return r
}

// show returns a place for a message: relative to the root module's
// directory, "modules/app/versions.tf:4".
func (rt *root) show(r hcl.Range) string {
	name := r.Filename
	if filepath.IsAbs(name) {
		if n, err := filepath.Rel(rt.dir, name); err == nil {
			name = n
		}
	}
	return fmt.Sprintf("%s:%d", filepath.ToSlash(name), r.Start.Line)
}

// fileRange returns the place of line (from 1) of the file name, relative
// to the root module's directory, as tflint names it; line 0 stands for
// the first.
func (rt *root) fileRange(name string, line int) hcl.Range {
	if line < 1 {
		line = 1
	}
	pos := hcl.Pos{Line: line, Column: 1}
	return rt.tflintRange(hcl.Range{Filename: filepath.Join(rt.dir, filepath.FromSlash(name)), Start: pos, End: pos})
}

// parsePos reads a place as package resolve prints it relative to the
// root directory ("main.tf:3:13", "main.tf:3,13-20", "main.tf:3"),
// and returns the file and line.
func parsePos(pos string) (file string, line int, ok bool) {
	// The file name may hold colons; the line is the first number after
	// the last colon that is followed by digits up to a colon, comma or
	// the end.
	for i := len(pos) - 1; i >= 0; i-- {
		if pos[i] != ':' {
			continue
		}
		rest := pos[i+1:]
		end := strings.IndexAny(rest, ":,")
		if end < 0 {
			end = len(rest)
		}
		if n, err := strconv.Atoi(rest[:end]); err == nil && n > 0 {
			// A column follows the line after a colon: look further left
			// for a line before it.
			if j := strings.LastIndexByte(pos[:i], ':'); j >= 0 {
				if m, err := strconv.Atoi(pos[j+1 : i]); err == nil && m > 0 {
					return pos[:j], m, true
				}
			}
			return pos[:i], n, true
		}
	}
	return "", 0, false
}

// loadTree reads the module tree from the root module's directory as
// prerel reads it: by default as OpenTofu reads it (.tofu files
// included), with terraform set as Terraform reads it. skip, when not
// nil, leaves files out (pin.Skip: prerel pin's own files). Errors in the
// configuration are the rule's error: tflint then stops and shows them,
// as it does for its own.
func (rt *root) loadTree(terraform bool, skip func(string) bool) (*config.Tree, error) {
	tree, diags := config.LoadTree(rt.dir, config.TreeOptions{Terraform: terraform, SkipFile: skip})
	if diags.HasErrors() {
		return nil, rt.diagError(diags)
	}
	return tree, nil
}

// diagError is the error of diagnostics, their places relative to tflint's
// working directory.
func (rt *root) diagError(diags hcl.Diagnostics) error {
	var lines []string
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		where := ""
		if d.Subject != nil {
			where = rt.show(*d.Subject) + ": "
		}
		line := "prerel: " + where + d.Summary
		if d.Detail != "" {
			line += ": " + d.Detail
		}
		lines = append(lines, line)
	}
	return fmt.Errorf("%s", strings.Join(lines, "\n"))
}

// relFrom returns an origin as package resolve gives it
// ("/src/app/prerel.hcl:2:12") with its file relative to the root
// module's directory and without the column ("prerel.hcl:2").
func (rt *root) relFrom(from string) string {
	file, line, ok := parsePos(from)
	if !ok {
		return from
	}
	return rt.show(hcl.Range{Filename: file, Start: hcl.Pos{Line: line}})
}
