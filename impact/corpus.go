package impact

import (
	"bufio"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// The files of the call corpus, relative to the corpus root
// (prerel.Corpus()).
const (
	CallsFile       = "calls/calls.tsv"
	ReposFile       = "calls/repos.tsv"
	HistoryMapFile  = "calls/history-map.tsv"
	HistoriesDir    = "calls/versions"
	maxCorpusLine   = 1 << 20
	corpusMaxFields = 64
)

// LoadCorpus reads the call corpus from fsys, laid out as prerel's
// testdata/corpus (see calls/README.md there):
//
//   - calls/calls.tsv: one call a row, tab-separated, with a header
//     naming at least repo, path, kind (module or provider), name,
//     source, source_key, constraint, history (a file of calls/versions,
//     or empty) and line;
//   - calls/repos.tsv: one row per repository read, after a header;
//   - calls/history-map.tsv: history and source_repository columns,
//     saying whose tags each history lists;
//   - calls/versions/NAME: the history NAME, one version a line as
//     tagged.
//
// Every history a call names must exist. The domain strips one leading
// "v" from each history line (see the package documentation).
func LoadCorpus(fsys fs.FS) (*Domain, error) {
	d := &Domain{Name: "corpus", Sample: true, Histories: map[string]*History{}}
	cols := []string{"repo", "path", "kind", "name", "source", "source_key", "constraint", "history", "line"}
	err := readTSV(fsys, CallsFile, cols, func(n int, f []string) error {
		kind := Kind(f[2])
		if kind != KindModule && kind != KindProvider {
			return fmt.Errorf("%s:%d: kind %q, expected module or provider", CallsFile, n, f[2])
		}
		line, err := strconv.Atoi(f[8])
		if err != nil || line < 1 {
			return fmt.Errorf("%s:%d: line %q is not a line number", CallsFile, n, f[8])
		}
		d.Calls = append(d.Calls, Call{Repo: f[0], Path: f[1], Line: line, Kind: kind, Name: f[3],
			Source: f[4], SourceKey: f[5], Constraint: f[6], History: f[7]})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := readTSV(fsys, ReposFile, []string{"repo"}, func(int, []string) error {
		d.Repositories++
		return nil
	}); err != nil {
		return nil, err
	}
	from := map[string]string{}
	if err := readTSV(fsys, HistoryMapFile, []string{"history", "source_repository"}, func(_ int, f []string) error {
		from[f[0]] = "tags of " + f[1]
		return nil
	}); err != nil {
		return nil, err
	}
	for _, c := range d.Calls {
		if c.History == "" || d.Histories[c.History] != nil {
			continue
		}
		name := path.Join(HistoriesDir, c.History)
		if path.Dir(name) != HistoriesDir {
			return nil, fmt.Errorf("%s: history %q is not a file name", CallsFile, c.History)
		}
		h := &History{Name: c.History, From: from[c.History], StripV: true}
		if err := readLines(fsys, name, func(_ int, line string) error {
			h.Lines = append(h.Lines, strings.TrimSpace(line))
			return nil
		}); err != nil {
			return nil, err
		}
		d.Histories[c.History] = h
	}
	return d, nil
}

// readLines calls each with every non-empty line of a file, without its
// line ending and surrounding spaces, and its line number.
func readLines(fsys fs.FS, name string, each func(n int, line string) error) error {
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), maxCorpusLine)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if err := each(n, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// readTSV reads a tab-separated file with a header and calls each with
// the named columns of every row, in the order of columns.
func readTSV(fsys fs.FS, name string, columns []string, each func(n int, fields []string) error) error {
	var at []int
	return readLines(fsys, name, func(n int, line string) error {
		fields := strings.SplitN(line, "\t", corpusMaxFields)
		if at == nil {
			for _, col := range columns {
				i := slices.Index(fields, col)
				if i < 0 {
					return fmt.Errorf("%s: the header has no %q column", name, col)
				}
				at = append(at, i)
			}
			return nil
		}
		row := make([]string, len(at))
		for j, i := range at {
			if i >= len(fields) {
				return fmt.Errorf("%s:%d: %d fields, expected at least %d", name, n, len(fields), i+1)
			}
			row[j] = fields[i]
		}
		return each(n, row)
	})
}
