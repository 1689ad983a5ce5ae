package compare

import (
	"bufio"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Pairing says which histories each real constraint of the corpus domain
// meets.
type Pairing string

// The pairings of the corpus domain.
const (
	// PairByContext, the default, pairs every constraint that has a
	// prerelease with every history, and every other constraint with the
	// histories of the kind its contexts say it constrains
	// (required_version: core; module: module; provider and
	// required_providers: provider), one representative history per kind
	// (see Corpus).
	PairByContext Pairing = "context"
	// PairAll pairs every constraint with every history.
	PairAll Pairing = "all"
)

// ParsePairing reads a pairing name; "" is PairByContext.
func ParsePairing(s string) (Pairing, error) {
	switch Pairing(s) {
	case "", PairByContext:
		return PairByContext, nil
	case PairAll:
		return PairAll, nil
	}
	return "", fmt.Errorf("unknown corpus pairing %q: expected context or all", s)
}

type corpusConstraint struct {
	text       string
	prerelease bool
	kinds      map[string]bool
}

type history struct {
	name, kind     string
	representative bool
	versions       []string
}

// corpus is the corpus domain: real constraints x real histories.
type corpus struct {
	pairing     Pairing
	constraints []corpusConstraint
	histories   []history
	cases       int64
	pre         int
	versions    int
}

// Corpus returns the domain of real constraint strings and real version
// histories read from fsys, laid out as prerel's testdata/corpus:
//
//   - constraints/*-sources.tsv: one constraint per row, tab-separated,
//     with a header naming at least the columns "constraint", "contexts"
//     (comma-separated: required_version, module, provider,
//     required_providers, ...) and "prerelease" (yes or no). Every file is
//     read, in name order; a constraint that appears twice is kept once,
//     with the union of its contexts.
//   - versions/NAME.txt: a version history, one version per line as
//     published, in the order the file gives.
//   - histories.tsv: "history<TAB>kind<TAB>representative" rows (after a
//     header) giving each history's kind (core, provider, module or tool)
//     and whether it stands for its kind ("yes"). A history it does not
//     list is a tool history.
//
// Each group is one constraint with one whole history, so the run also
// compares selection. With PairByContext, a constraint that has a
// prerelease meets every history, and any other constraint meets the
// representative histories of the kinds its contexts name: a release-only
// constraint meets few prerelease versions anyway, and meeting every
// history of its kind would make about four times the cases for little
// more. On the corpus of testdata/corpus the default pairing is 1,401,064
// cases and runs in a few seconds on 2 cores with the twenty policies
// prerel registers; PairAll is 18.4 million. With PairAll every constraint meets every history.
func Corpus(fsys fs.FS, pairing Pairing) (Domain, error) {
	if fsys == nil {
		return nil, fmt.Errorf("corpus domain: no file system")
	}
	if _, err := ParsePairing(string(pairing)); err != nil {
		return nil, err
	}
	if pairing == "" {
		pairing = PairByContext
	}
	d := &corpus{pairing: pairing}
	if err := d.readConstraints(fsys); err != nil {
		return nil, err
	}
	if err := d.readHistories(fsys); err != nil {
		return nil, err
	}
	for i := range d.constraints {
		for _, h := range d.pairedHistories(&d.constraints[i]) {
			d.cases += int64(len(h.versions))
		}
	}
	return d, nil
}

func (d *corpus) readConstraints(fsys fs.FS) error {
	files, err := fs.Glob(fsys, "constraints/*-sources.tsv")
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("corpus: no constraints/*-sources.tsv file")
	}
	index := map[string]int{}
	for _, name := range files {
		err := readTSV(fsys, name, []string{"constraint", "contexts", "prerelease"}, func(f []string) error {
			kinds := map[string]bool{}
			for _, ctx := range strings.Split(f[1], ",") {
				if k := contextKind(ctx); k != "" {
					kinds[k] = true
				}
			}
			if i, ok := index[f[0]]; ok {
				for k := range kinds {
					d.constraints[i].kinds[k] = true
				}
				return nil
			}
			index[f[0]] = len(d.constraints)
			pre := f[2] == "yes"
			if pre {
				d.pre++
			}
			d.constraints = append(d.constraints, corpusConstraint{text: f[0], prerelease: pre, kinds: kinds})
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// contextKind maps a context of the sources files to the kind of history
// it constrains, or "" for none.
func contextKind(ctx string) string {
	switch {
	case ctx == "required_version":
		return "core"
	case ctx == "module":
		return "module"
	case ctx == "provider", strings.HasPrefix(ctx, "required_providers"):
		return "provider"
	}
	return ""
}

func (d *corpus) readHistories(fsys fs.FS) error {
	kinds := map[string][2]string{}
	if _, err := fs.Stat(fsys, "histories.tsv"); err == nil {
		err := readTSV(fsys, "histories.tsv", []string{"history", "kind", "representative"}, func(f []string) error {
			kinds[f[0]] = [2]string{f[1], f[2]}
			return nil
		})
		if err != nil {
			return err
		}
	}
	files, err := fs.Glob(fsys, "versions/*.txt")
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("corpus: no versions/*.txt file")
	}
	slices.Sort(files)
	for _, name := range files {
		h := history{name: strings.TrimSuffix(path.Base(name), ".txt"), kind: "tool"}
		if k, ok := kinds[h.name]; ok {
			h.kind, h.representative = k[0], k[1] == "yes"
		}
		if err := readLines(fsys, name, func(_ int, v string) { h.versions = append(h.versions, v) }); err != nil {
			return err
		}
		d.versions += len(h.versions)
		d.histories = append(d.histories, h)
	}
	return nil
}

// pairedHistories lists the histories c meets, in history order.
func (d *corpus) pairedHistories(c *corpusConstraint) []*history {
	var out []*history
	for i := range d.histories {
		h := &d.histories[i]
		if d.pairing == PairAll || c.prerelease || h.representative && c.kinds[h.kind] {
			out = append(out, h)
		}
	}
	return out
}

// Info describes the domain.
func (d *corpus) Info() DomainInfo {
	return DomainInfo{
		Name: "corpus",
		Description: fmt.Sprintf("corpus, pairing %s: %d real constraints (%d with a prerelease) x %d real histories (%d versions)",
			d.pairing, len(d.constraints), d.pre, len(d.histories), d.versions),
		Cases: d.cases,
	}
}

// Groups yields, constraint by constraint, one group per paired history.
func (d *corpus) Groups(yield func(Group) bool) error {
	for i := range d.constraints {
		c := &d.constraints[i]
		for _, h := range d.pairedHistories(c) {
			if !yield(Group{Constraint: c.text, Versions: h.versions, History: h.name}) {
				return nil
			}
		}
	}
	return nil
}

// readLines calls each for every non-empty line of a file, without its
// line ending, with its line number.
func readLines(fsys fs.FS, name string, each func(line int, text string)) error {
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	n := 0
	for sc.Scan() {
		n++
		if text := strings.TrimSuffix(sc.Text(), "\r"); text != "" {
			each(n, text)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("corpus: %s: %v", name, err)
	}
	return nil
}

// readTSV reads a tab-separated file with a header and calls each with
// the named columns of every row, in the order of columns.
func readTSV(fsys fs.FS, name string, columns []string, each func([]string) error) error {
	var at []int
	var ferr error
	err := readLines(fsys, name, func(line int, text string) {
		if ferr != nil {
			return
		}
		fields := strings.Split(text, "\t")
		if at == nil {
			for _, col := range columns {
				i := slices.Index(fields, col)
				if i < 0 {
					ferr = fmt.Errorf("corpus: %s: the header has no %q column", name, col)
					return
				}
				at = append(at, i)
			}
			return
		}
		row := make([]string, len(at))
		for j, i := range at {
			if i >= len(fields) {
				ferr = fmt.Errorf("corpus: %s:%d: %d fields, expected at least %d", name, line, len(fields), i+1)
				return
			}
			row[j] = fields[i]
		}
		ferr = each(row)
	})
	if err != nil {
		return err
	}
	return ferr
}
