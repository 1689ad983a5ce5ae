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

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/address"
	"github.com/prerel/prerel/terraform/config"
)

// WriteOptions tunes Write and Remove.
type WriteOptions struct {
	// Unlock removes from the lock file the provider blocks of Plan.Lock,
	// so that init installs the pinned versions without -upgrade; for
	// Remove, the blocks of the providers the removed files pinned, so
	// that init installs today's selection again without -upgrade.
	Unlock bool
	// AllowOutside lets Write and Remove write and remove files outside
	// the boundary (Options.AllowOutside); a symbolic link at a file is
	// never followed.
	AllowOutside bool
}

// Write makes the tree what the plan says, as one change: the plan's
// files written, the files pin wrote that it no longer needs removed
// (Plan.Stale), the temporary files a killed run left removed
// (Plan.Leftovers), and with opts.Unlock the lock file entries of
// Plan.Lock removed.
//
// Every target is checked first: a file named FileName that pin did not
// write, a symbolic link, a file outside the boundary (unless
// opts.AllowOutside) or a file larger than prerel reads is refused before
// anything is written. Every new file is then written in full to a
// temporary file beside its target (so that a full disk or a directory
// that cannot be written stops the change there), and only then are they
// renamed into place and the old files removed. When a step fails, the
// steps done are undone; the error says so, or names exactly the files
// that could not be restored.
func Write(p *Plan, opts WriteOptions) error {
	g, err := newGuard(p.Dir, opts.AllowOutside)
	if err != nil {
		return err
	}
	var ops []*op
	for _, f := range p.Files {
		t, err := g.judge(p.Dir, filepath.Join(g.realDir, f.Rel))
		if err != nil {
			return err
		}
		if len(f.Content) > safefile.ConfigLimit {
			return fmt.Errorf("pin: %s would be %s, more than the %s prerel reads of a configuration file", clip(f.Rel), safefile.Size(int64(len(f.Content))), safefile.Size(safefile.ConfigLimit))
		}
		if _, err := os.Lstat(t.path); err == nil {
			own, err := Owned(t.path)
			if err != nil {
				return err
			}
			if !own {
				return fmt.Errorf("pin: %s exists and prerel did not write it; not touched", clip(f.Rel))
			}
		}
		ops = append(ops, &op{name: f.Rel, path: t.path, data: []byte(f.Content)})
	}
	if opts.Unlock && len(p.Lock) > 0 && p.LockFile != "" {
		if p.LockRefused != "" {
			return fmt.Errorf("pin: the lock file is not changed: %s", p.LockRefused)
		}
		t, err := g.judge(p.Dir, filepath.Join(g.realDir, p.LockFile))
		if err != nil {
			return fmt.Errorf("pin: the lock file is not changed: %w", err)
		}
		addrs := make([]string, len(p.Lock))
		for i, l := range p.Lock {
			addrs[i] = l.Address
		}
		src, err := safefile.Read(t.path, safefile.ConfigLimit)
		if err != nil {
			return fmt.Errorf("pin: %w", err)
		}
		out, removed, err := unlocked(src, t.path, addrs)
		if err != nil {
			return err
		}
		if len(removed) > 0 {
			ops = append(ops, &op{name: p.LockFile, path: t.path, data: out, noun: "lock file"})
		}
	}
	for _, rel := range p.Stale {
		o, err := removal(g, p.Dir, rel, Owned)
		if err != nil {
			return err
		}
		if o != nil {
			ops = append(ops, o)
		}
	}
	for _, rel := range p.Leftovers {
		o, err := removal(g, p.Dir, rel, isLeftover)
		if err != nil {
			return err
		}
		if o != nil {
			ops = append(ops, o)
		}
	}
	return apply(ops)
}

// removal returns the removal of the file at rel (relative to the root
// directory, links followed), once the guard allows it and mine says pin
// wrote it; nil when it is gone or not pin's.
func removal(g *guard, dir, rel string, mine func(string) (bool, error)) (*op, error) {
	t, err := g.judge(dir, filepath.Join(g.realDir, rel))
	if err != nil {
		return nil, err
	}
	ok, err := mine(t.path)
	if err != nil || !ok {
		return nil, err
	}
	return &op{name: rel, path: t.path, remove: true}, nil
}

// The steps of a change, which the tests replace to make one fail.
var (
	prepareFile = func(path string, opt safefile.WriteOptions, data []byte) (*safefile.Prepared, error) {
		return safefile.Prepare(path, opt, data)
	}
	commitFile = func(p *safefile.Prepared) error { return p.Commit() }
	removeFile = os.Remove
)

// op is one step of a change: a file written (data) or removed.
type op struct {
	// name is the file relative to the root directory; path is where it
	// is, resolved.
	name, path string
	data       []byte
	remove     bool
	noun       string
	// old is the file's content before the change, when it existed.
	old      []byte
	existed  bool
	prepared *safefile.Prepared
}

// restoreLimit bounds what apply keeps of a file it replaces or removes,
// to restore it.
const restoreLimit = safefile.ListLimit

// apply carries out ops as one change: every new file prepared beside
// its target, then put in place, then the removals; a failure undoes the
// steps done.
func apply(ops []*op) error {
	discard := func() {
		for _, o := range ops {
			if o.prepared != nil {
				o.prepared.Discard()
				o.prepared = nil
			}
		}
	}
	for _, o := range ops {
		src, err := safefile.Read(o.path, restoreLimit)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			discard()
			return fmt.Errorf("pin: %s: %w", clip(o.name), err)
		default:
			o.old, o.existed = src, true
		}
		if o.remove {
			continue
		}
		noun := o.noun
		if noun == "" {
			noun = "override file"
		}
		o.prepared, err = prepareFile(o.path, safefile.WriteOptions{Noun: noun, Name: o.name}, o.data)
		if err != nil {
			discard()
			return fmt.Errorf("pin: %w; nothing was changed", err)
		}
	}
	for i, o := range ops {
		var err error
		if o.remove {
			if err = removeFile(o.path); errors.Is(err, fs.ErrNotExist) {
				err = nil
			} else if err != nil {
				err = fmt.Errorf("cannot remove %s: %w", clip(o.name), unwrapPath(err))
			}
		} else {
			err = commitFile(o.prepared)
			o.prepared = nil
		}
		if err != nil {
			discard()
			return fmt.Errorf("pin: %w; %s", err, undo(ops[:i]))
		}
	}
	return nil
}

// undo restores the files of the steps done, last first, and says what
// it did.
func undo(done []*op) string {
	var restored, failed []string
	for i := len(done) - 1; i >= 0; i-- {
		o := done[i]
		var err error
		if o.existed {
			err = safefile.WriteFile(o.path, safefile.WriteOptions{Name: o.name}, o.old)
		} else if err = os.Remove(o.path); errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s (%v)", clip(o.name), unwrapPath(err)))
		} else {
			restored = append(restored, clip(o.name))
		}
	}
	switch {
	case len(done) == 0:
		return "nothing was changed"
	case len(failed) == 0:
		return "nothing was changed: " + strings.Join(restored, ", ") + " restored as they were"
	default:
		return "could not restore " + strings.Join(failed, ", ") + ", which hold what pin wrote or are removed; restored " + orNothing(restored)
	}
}

func orNothing(s []string) string {
	if len(s) == 0 {
		return "nothing"
	}
	return strings.Join(s, ", ")
}

// unwrapPath returns the system's reason of a *fs.PathError, whose path
// is a resolved or temporary one.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Removal is what Remove removed and what it would not touch.
type Removal struct {
	// Removed are the files removed, relative to the root directory:
	// pin's override files, then temporary files a killed run left.
	Removed []string `json:"removed"`
	// Pins are the pins the removed files held.
	Pins []RemovedPin `json:"pins"`
	// Unlocked are the provider blocks removed from the lock file
	// (WriteOptions.Unlock).
	Unlocked []string `json:"unlocked"`
	// Refused are pin's files Remove would not touch: outside the
	// boundary (see WriteOptions.AllowOutside).
	Refused []Refusal `json:"refused"`
}

// RemovedPin is a pin a removed file held.
type RemovedPin struct {
	Kind resolve.Kind `json:"kind"`
	// Name is the module call's name in its module, or the provider's
	// local name; Source the provider's source address ("" for a module
	// call).
	Name   string `json:"name"`
	Source string `json:"source,omitempty"`
	// Version is the pinned version.
	Version string `json:"version"`
	// Dir is the module directory (as in Plan.Dirs), File the file
	// relative to the root directory.
	Dir  string `json:"dir"`
	File string `json:"file"`
}

// Remove deletes, as one change (see Write), the files pin wrote
// (recognised by their header) and the temporary files a killed run left
// in every local module directory of the plan's tree (Plan.Dirs). Files
// pin did not write, symbolic links, and files outside the boundary
// (unless opts.AllowOutside) are never touched. A provider pin that init
// installed stays in the lock file: run `terraform init -upgrade` after
// removing it, as after writing it.
func Remove(p *Plan, opts WriteOptions) (*Removal, error) {
	g, err := newGuard(p.Dir, opts.AllowOutside)
	if err != nil {
		return nil, err
	}
	r := &Removal{Removed: []string{}, Pins: []RemovedPin{}, Refused: []Refusal{}}
	var ops []*op
	seen := map[string]bool{}
	for _, d := range p.Dirs {
		t, err := g.judge(p.Dir, filepath.Join(d, FileName))
		var refused *RefusedError
		if errors.As(err, &refused) && refused.Link {
			continue // a link is not pin's
		}
		own, oerr := Owned(t.path)
		if oerr != nil && err == nil {
			return nil, oerr
		}
		switch {
		case seen[t.path]:
			continue
		case err != nil && !errors.As(err, &refused):
			return nil, err
		case err != nil && own:
			r.Refused = append(r.Refused, Refusal{File: t.rel, Reason: err.Error()})
			continue
		case err != nil:
			continue
		}
		seen[t.path] = true
		if own {
			ops = append(ops, &op{name: t.rel, path: t.path, remove: true})
			r.Pins = append(r.Pins, pinsIn(t.path, d, t.rel)...)
		}
		entries, err := os.ReadDir(filepath.Dir(t.path))
		if err != nil {
			return nil, fmt.Errorf("pin: %w", err)
		}
		for _, e := range entries {
			path := filepath.Join(filepath.Dir(t.path), e.Name())
			if ok, err := isLeftover(path); err != nil {
				return nil, err
			} else if ok {
				ops = append(ops, &op{name: relPath(g.realDir, path), path: path, remove: true})
			}
		}
	}
	lockOp, unlocked, err := p.unlockPinned(g, r.Pins, opts)
	if err != nil {
		return nil, err
	}
	if err := apply(append(ops, lockOp...)); err != nil {
		return nil, err
	}
	for _, o := range ops {
		r.Removed = append(r.Removed, o.name)
	}
	r.Unlocked = unlocked
	return r, nil
}

// unlockPinned returns, with opts.Unlock, the change of the lock file
// that removes the blocks of the providers pins held, and their
// addresses.
func (p *Plan) unlockPinned(g *guard, pins []RemovedPin, opts WriteOptions) ([]*op, []string, error) {
	if !opts.Unlock || p.LockFile == "" {
		return nil, []string{}, nil
	}
	var addrs []string
	for _, x := range pins {
		if x.Kind != resolve.KindProvider {
			continue
		}
		if a, err := address.ParseProvider(x.Source); err == nil {
			addrs = append(addrs, address.ProviderKey(a))
		}
	}
	if len(addrs) == 0 {
		return nil, []string{}, nil
	}
	path := p.LockFile
	if !filepath.IsAbs(path) {
		path = filepath.Join(g.realDir, path)
	}
	t, err := g.judge(p.Dir, path)
	if err != nil {
		return nil, nil, fmt.Errorf("pin: the lock file is not changed: %w", err)
	}
	src, err := safefile.Read(t.path, safefile.ConfigLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, []string{}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("pin: %w", err)
	}
	out, removed, err := unlocked(src, t.path, addrs)
	if err != nil || len(removed) == 0 {
		return nil, []string{}, err
	}
	return []*op{{name: t.rel, path: t.path, data: out, noun: "lock file"}}, removed, nil
}

// pinsIn reads the pins of one of pin's files, at path
// (resolve.OverrideEntries). A file that does not parse holds none that
// can be named.
func pinsIn(path, dir, rel string) []RemovedPin {
	src, err := safefile.Read(path, safefile.ConfigLimit)
	if err != nil {
		return nil
	}
	f, diags := hclread.ParseHCL(src, path)
	if diags.HasErrors() || f == nil {
		return nil
	}
	var out []RemovedPin
	for _, e := range resolve.OverrideEntries(f.Body) {
		out = append(out, RemovedPin{Kind: e.Kind, Name: e.Name, Source: e.Source, Version: e.Version, Dir: dir, File: rel})
	}
	return out
}

// Difference is a file on disk that is not what Write would leave.
type Difference struct {
	// File is relative to the root directory.
	File string `json:"file"`
	// Kind is "missing" (Write would create it), "changed" (Write would
	// rewrite it), "stale" (Write would remove it) or "leftover" (a
	// temporary file a killed run left, which Write would remove).
	Kind string `json:"kind"`
	// Line is the first line of the file on disk that Write would change
	// (from 1), for a "changed" file; 0 otherwise.
	Line int `json:"line,omitempty"`
	// Diff is the change Write would make, line by line: "-" for a line
	// on disk, "+" for a line Write writes.
	Diff string `json:"diff,omitempty"`
}

// firstDifference returns the first line (from 1) at which a and b
// differ.
func firstDifference(a, b string) int {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range x {
		if i >= len(y) || x[i] != y[i] {
			return i + 1
		}
	}
	return len(x) + 1
}

// Check compares the files on disk with what Write would leave: the
// plan's files written, the stale ones removed. No differences means the
// override files are up to date.
func Check(p *Plan) ([]Difference, error) {
	g, err := newGuard(p.Dir, true)
	if err != nil {
		return nil, err
	}
	var out []Difference
	for _, f := range p.Files {
		src, err := safefile.Read(filepath.Join(g.realDir, f.Rel), safefile.ConfigLimit)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, Difference{File: f.Rel, Kind: "missing", Diff: lineDiff("", f.Content)})
		case safefile.IsTooLarge(err):
			out = append(out, Difference{File: f.Rel, Kind: "changed", Diff: "-(the file on disk is larger than " + safefile.Size(safefile.ConfigLimit) + ")\n" + lineDiff("", f.Content)})
		case err != nil:
			return nil, fmt.Errorf("pin: %w", err)
		case string(src) != f.Content:
			out = append(out, Difference{File: f.Rel, Kind: "changed", Line: firstDifference(string(src), f.Content), Diff: lineDiff(string(src), f.Content)})
		}
	}
	for _, rel := range p.Stale {
		path := filepath.Join(g.realDir, rel)
		src, err := safefile.Read(path, safefile.ConfigLimit)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case safefile.IsTooLarge(err):
			out = append(out, Difference{File: rel, Kind: "stale", Diff: "-(the file on disk is larger than " + safefile.Size(safefile.ConfigLimit) + ")\n"})
		case err != nil:
			return nil, fmt.Errorf("pin: %w", err)
		default:
			out = append(out, Difference{File: rel, Kind: "stale", Diff: lineDiff(string(src), "")})
		}
	}
	for _, rel := range p.Leftovers {
		if _, err := os.Lstat(filepath.Join(g.realDir, rel)); err == nil {
			out = append(out, Difference{File: rel, Kind: "leftover"})
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
	out, removed, err := unlocked(src, path, addresses)
	if err != nil || len(removed) == 0 {
		return nil, err
	}
	if err := safefile.WriteFile(path, safefile.WriteOptions{Noun: "lock file"}, out); err != nil {
		return nil, fmt.Errorf("pin: %w", err)
	}
	return removed, nil
}

// unlocked returns the lock file src (read from path) without the
// provider blocks of addresses, and the addresses removed.
func unlocked(src []byte, path string, addresses []string) ([]byte, []string, error) {
	f, diags := hclread.ParseHCL(src, path)
	if diags.HasErrors() {
		return nil, nil, fmt.Errorf("pin: %s", diags.Error())
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil, nil, fmt.Errorf("pin: %s is not in HCL's native syntax", path)
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
	out = append(out, src[last:]...)
	return out, removed, nil
}

// KeepPolicy is the policy with which init judges whether an installed
// module stays: hashicorp/go-version's Check alone, without the
// prerelease gate of its selection (Terraform's moduleInstallWalker, and
// OpenTofu's, replace an installed module only when the call's
// constraint does not Check its version).
const KeepPolicy = "hashicorp"

// Kept lists what init keeps installed once the pins of removal are gone,
// until init -upgrade: a module call whose manifest records a prerelease
// that the call's own constraint admits under check (KeepPolicy); and a
// provider locked at the version a removed pin asked for, unless its
// lock block went too.
func Kept(tree *config.Tree, locks []config.LockedProvider, removal *Removal, check engine.Policy) []string {
	var out []string
	for _, x := range removal.Pins {
		switch x.Kind {
		case resolve.KindModule:
			for _, n := range tree.Nodes {
				if n.Call == nil || n.Record == nil || n.Call.Name != x.Name || n.Parent == nil || filepath.Clean(n.Parent.Dir) != filepath.Clean(x.Dir) {
					continue
				}
				v, err := engine.ParseVersion(strings.TrimPrefix(n.Record.Version, "v"))
				if err != nil || !v.IsPrerelease() || check == nil || engine.Evaluate(check, n.Call.Version, n.Record.Version).Verdict != engine.Allow {
					continue
				}
				out = append(out, fmt.Sprintf("module.%s: %s stays installed (its constraint %q admits it)", strings.Join(n.Path, ".module."), n.Record.Version, n.Call.Version))
			}
		case resolve.KindProvider:
			addr, err := address.ParseProvider(x.Source)
			if err != nil || slices.Contains(removal.Unlocked, address.ProviderKey(addr)) {
				continue
			}
			for _, l := range locks {
				if l.Address == address.ProviderKey(addr) && l.Version == x.Version {
					out = append(out, fmt.Sprintf("provider %s: %s stays locked (--update-lock removes its lock entry)", l.Address, l.Version))
				}
			}
		}
	}
	return out
}
