package pin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/safefile"
)

// WriteOptions tunes Write.
type WriteOptions struct {
	// Unlock removes from the lock file the provider blocks of Plan.Lock,
	// so that init installs the pinned versions without -upgrade.
	Unlock bool
}

// Write writes the plan's files, each atomically (internal/safefile),
// removes the files pin wrote that the plan no longer needs
// (Plan.Stale), and with opts.Unlock removes the lock file entries of
// Plan.Lock. A file named FileName that pin did not write is never
// written over: Write refuses before writing anything.
func Write(p *Plan, opts WriteOptions) error {
	for _, f := range p.Files {
		if _, err := os.Lstat(f.Path); err == nil {
			own, err := Owned(f.Path)
			if err != nil {
				return err
			}
			if !own {
				return fmt.Errorf("pin: %s exists and prerel did not write it; not touched", f.Rel)
			}
		}
	}
	for _, f := range p.Files {
		if err := safefile.WriteFile(f.Path, safefile.WriteOptions{Noun: "override file"}, []byte(f.Content)); err != nil {
			return fmt.Errorf("pin: %w", err)
		}
	}
	for _, rel := range p.Stale {
		if err := removeOwned(p.abs(rel)); err != nil {
			return err
		}
	}
	if opts.Unlock && len(p.Lock) > 0 && p.LockFile != "" {
		addrs := make([]string, len(p.Lock))
		for i, l := range p.Lock {
			addrs[i] = l.Address
		}
		if _, err := Unlock(p.abs(p.LockFile), addrs); err != nil {
			return err
		}
	}
	return nil
}

// abs returns a path relative to the root directory joined to it.
func (p *Plan) abs(rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(p.Dir, rel)
}

// removeOwned removes path when pin wrote it.
func removeOwned(path string) error {
	own, err := Owned(path)
	if err != nil || !own {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("pin: %w", err)
	}
	return nil
}

// Remove deletes the files pin wrote (recognised by their header) in
// every local module directory of the plan's tree, and returns their
// paths relative to the root directory. Files pin did not write are never
// touched. A provider pin that init installed stays in the lock file:
// run `terraform init -upgrade` after removing it, as after writing it.
func Remove(p *Plan) ([]string, error) {
	var removed []string
	for _, d := range p.Dirs {
		path := filepath.Join(d, FileName)
		own, err := Owned(path)
		if err != nil {
			return removed, err
		}
		if !own {
			continue
		}
		if err := os.Remove(path); err != nil {
			return removed, fmt.Errorf("pin: %w", err)
		}
		rel, err := filepath.Rel(p.Dir, path)
		if err != nil {
			rel = path
		}
		removed = append(removed, rel)
	}
	return removed, nil
}

// Difference is a file on disk that is not what Write would leave.
type Difference struct {
	// File is relative to the root directory.
	File string `json:"file"`
	// Kind is "missing" (Write would create it), "changed" (Write would
	// rewrite it) or "stale" (Write would remove it).
	Kind string `json:"kind"`
	// Diff is the change Write would make, line by line: "-" for a line
	// on disk, "+" for a line Write writes.
	Diff string `json:"diff,omitempty"`
}

// Check compares the files on disk with what Write would leave: the
// plan's files written, the stale ones removed. No differences means the
// override files are up to date.
func Check(p *Plan) ([]Difference, error) {
	var out []Difference
	for _, f := range p.Files {
		src, err := safefile.Read(f.Path, safefile.ConfigLimit)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, Difference{File: f.Rel, Kind: "missing", Diff: lineDiff("", f.Content)})
		case err != nil:
			return nil, fmt.Errorf("pin: %w", err)
		case string(src) != f.Content:
			out = append(out, Difference{File: f.Rel, Kind: "changed", Diff: lineDiff(string(src), f.Content)})
		}
	}
	for _, rel := range p.Stale {
		src, err := safefile.Read(p.abs(rel), safefile.ConfigLimit)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("pin: %w", err)
		}
		if err == nil {
			out = append(out, Difference{File: rel, Kind: "stale", Diff: lineDiff(string(src), "")})
		}
	}
	return out, nil
}

// lineDiff returns the lines of a and b that differ, marked "-" and "+",
// in the order of a longest common subsequence.
func lineDiff(a, b string) string {
	split := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	}
	x, y := split(a), split(b)
	// lcs[i][j] is the length of the longest common subsequence of x[i:]
	// and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if strings.TrimSuffix(x[i], "\n") == strings.TrimSuffix(y[j], "\n") {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b2 strings.Builder
	line := func(mark string, s string) {
		b2.WriteString(mark + strings.TrimSuffix(s, "\n") + "\n")
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && strings.TrimSuffix(x[i], "\n") == strings.TrimSuffix(y[j], "\n"):
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			line("-", x[i])
			i++
		default:
			line("+", y[j])
			j++
		}
	}
	return b2.String()
}

// Unlock removes from the dependency lock file at path the provider
// blocks of the given addresses (as the lock file writes them:
// registry.terraform.io/hashicorp/aws), each with the end of its last
// line and the blank line that separates it from the next block, keeping
// every other byte of the file, and writes it atomically. It returns the
// addresses removed; init then locks what the configuration selects
// without -upgrade. The blocks' places come from the HCL parser.
func Unlock(path string, addresses []string) ([]string, error) {
	src, err := safefile.Read(path, safefile.ConfigLimit)
	if err != nil {
		return nil, fmt.Errorf("pin: %w", err)
	}
	f, diags := hclread.ParseHCL(src, path)
	if diags.HasErrors() {
		return nil, fmt.Errorf("pin: %s", diags.Error())
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil, fmt.Errorf("pin: %s is not in HCL's native syntax", path)
	}
	var removed []string
	var out []byte
	last := 0
	for _, b := range body.Blocks {
		if b.Type != "provider" || len(b.Labels) != 1 || !slices.Contains(addresses, b.Labels[0]) {
			continue
		}
		start, end := b.Range().Start.Byte, b.Range().End.Byte
		for range 2 { // the end of the block's line, then one blank line
			if end < len(src) && src[end] == '\n' {
				end++
			} else if end+1 < len(src) && src[end] == '\r' && src[end+1] == '\n' {
				end += 2
			}
		}
		out = append(out, src[last:start]...)
		last = end
		removed = append(removed, b.Labels[0])
	}
	if len(removed) == 0 {
		return nil, nil
	}
	out = append(out, src[last:]...)
	if err := safefile.WriteFile(path, safefile.WriteOptions{Noun: "lock file"}, out); err != nil {
		return nil, fmt.Errorf("pin: %w", err)
	}
	return removed, nil
}
