package readers

import (
	"fmt"

	goversion "github.com/hashicorp/go-version"

	"github.com/prerel/prerel/engine"
)

// The fast path (engine.VersionReader): each policy reads a list of
// versions once with go-version, as its Match does, and a constraint
// compiled against the list judges every version it read with the
// decision Match makes, without reading the version again or writing a
// reason.

// goTable is a list of versions as go-version reads them.
type goTable struct {
	texts   []string
	values  []*goversion.Version
	errs    []error
	dropped string
	compile func(constraint string) (versionJudge, error)
}

func newGoTable(texts []string, dropped string, compile func(string) (versionJudge, error)) *goTable {
	t := &goTable{texts: texts, values: make([]*goversion.Version, len(texts)), errs: make([]error, len(texts)), dropped: dropped, compile: compile}
	for i, text := range texts {
		t.values[i], t.errs[i] = parseGoVersion(text)
	}
	return t
}

// Len is the number of versions.
func (t *goTable) Len() int { return len(t.texts) }

// Compile compiles constraint as the policy's Compile does.
func (t *goTable) Compile(constraint string) (engine.TableMatcher, error) {
	j, err := t.compile(constraint)
	if err != nil {
		return nil, err
	}
	return &goTableMatcher{t, j}, nil
}

type goTableMatcher struct {
	t *goTable
	j versionJudge
}

// Judge is Match on version i.
func (m *goTableMatcher) Judge(i int) (r engine.Result) {
	defer func() {
		if p := recover(); p != nil {
			r = engine.InvalidResult(fmt.Errorf("panicked on this input: %v", p))
		}
	}()
	if err := m.t.errs[i]; err != nil {
		return engine.InvalidResult(fmt.Errorf("%v; %s", err, m.t.dropped))
	}
	return m.j.judge(m.t.values[i], true)
}

// Verdicts is Match's verdict on every version.
func (m *goTableMatcher) Verdicts(out []engine.Verdict) {
	for i := range out {
		if m.t.errs[i] != nil {
			out[i] = engine.Invalid
			continue
		}
		out[i] = m.verdict(i)
	}
}

func (m *goTableMatcher) verdict(i int) (v engine.Verdict) {
	defer func() {
		if p := recover(); p != nil {
			v = engine.Invalid
		}
	}()
	return m.j.judge(m.t.values[i], false).Verdict
}
