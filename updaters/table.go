package updaters

import (
	"github.com/prerel/prerel/engine"
)

// The fast path (engine.VersionReader): each policy reads a list of
// versions once with the parser its Match uses, keeping each parse
// error, and a constraint compiled against the list (with the policy's
// Compile) judges every version it read with the same decision as Match,
// without parsing the version again or writing a reason. Judge is Match
// on the text.

var (
	_ engine.VersionReader = Dependabot{}
	_ engine.VersionReader = TerraformModuleVersions{}
	_ engine.VersionReader = Renovate{}
)

// parsedVersions is a list of versions as one policy reads them: the
// texts, each one's reading, and whether it read it.
type parsedVersions[V any] struct {
	texts  []string
	values []V
	ok     []bool
}

// readAll reads every text with parse.
func readAll[V any](texts []string, parse func(string) (V, error)) parsedVersions[V] {
	p := parsedVersions[V]{texts: texts, values: make([]V, len(texts)), ok: make([]bool, len(texts))}
	for i, t := range texts {
		v, err := parse(t)
		p.values[i], p.ok[i] = v, err == nil
	}
	return p
}

// Len is the number of versions.
func (p *parsedVersions[V]) Len() int { return len(p.texts) }

// verdicts writes into out Invalid for each version the policy could not
// read and decide's verdict for the others.
func (p *parsedVersions[V]) verdicts(out []engine.Verdict, decide func(i int, v V) engine.Verdict) {
	for i := range out {
		if !p.ok[i] {
			out[i] = engine.Invalid
			continue
		}
		out[i] = decide(i, p.values[i])
	}
}

// ReadVersions reads versions with ParseGemVersion, once.
func (Dependabot) ReadVersions(versions []string) engine.VersionTable {
	return &dependabotTable{readAll(versions, ParseGemVersion)}
}

type dependabotTable struct{ parsedVersions[GemVersion] }

// Compile compiles constraint as Dependabot's Compile does.
func (t *dependabotTable) Compile(constraint string) (engine.TableMatcher, error) {
	m, err := Dependabot{}.Compile(constraint)
	if err != nil {
		return nil, err
	}
	return &dependabotTableMatcher{t: t, m: m.(*dependabotMatcher)}, nil
}

type dependabotTableMatcher struct {
	t *dependabotTable
	m *dependabotMatcher
}

// Judge is Match on version i.
func (m *dependabotTableMatcher) Judge(i int) engine.Result { return m.m.Match(m.t.texts[i]) }

// Verdicts is Match's verdict on every version.
func (m *dependabotTableMatcher) Verdicts(out []engine.Verdict) {
	m.t.verdicts(out, func(_ int, v GemVersion) engine.Verdict {
		verdict, _ := m.m.decide(v)
		return verdict
	})
}

// ReadVersions reads versions with Masterminds' NewVersion of v3.3.1,
// once.
func (TerraformModuleVersions) ReadVersions(versions []string) engine.VersionTable {
	return &tfmvTable{readAll(versions, parseMMVersion)}
}

type tfmvTable struct{ parsedVersions[mmVer] }

// Compile compiles constraint as TerraformModuleVersions' Compile does.
func (t *tfmvTable) Compile(constraint string) (engine.TableMatcher, error) {
	m, err := TerraformModuleVersions{}.Compile(constraint)
	if err != nil {
		return nil, err
	}
	return &tfmvTableMatcher{t: t, m: m.(*tfmvMatcher)}, nil
}

type tfmvTableMatcher struct {
	t *tfmvTable
	m *tfmvMatcher
}

// Judge is Match on version i.
func (m *tfmvTableMatcher) Judge(i int) engine.Result { return m.m.Match(m.t.texts[i]) }

// Verdicts is Match's verdict on every version.
func (m *tfmvTableMatcher) Verdicts(out []engine.Verdict) {
	m.t.verdicts(out, func(_ int, v mmVer) engine.Verdict { return m.m.judge(v).Verdict })
}

// ReadVersions reads versions as node-semver does, once.
func (Renovate) ReadVersions(versions []string) engine.VersionTable {
	return &renovateTable{readAll(versions, readNPMVersion)}
}

type renovateTable struct{ parsedVersions[engine.Version] }

// Compile compiles constraint as Renovate's Compile does.
func (t *renovateTable) Compile(constraint string) (engine.TableMatcher, error) {
	m, err := Renovate{}.Compile(constraint)
	if err != nil {
		return nil, err
	}
	return &renovateTableMatcher{t: t, m: m.(*renovateMatcher)}, nil
}

type renovateTableMatcher struct {
	t *renovateTable
	m *renovateMatcher
}

// Judge is Match on version i.
func (m *renovateTableMatcher) Judge(i int) engine.Result { return m.m.Match(m.t.texts[i]) }

// Verdicts is Match's verdict on every version.
func (m *renovateTableMatcher) Verdicts(out []engine.Verdict) {
	m.t.verdicts(out, func(_ int, v engine.Version) engine.Verdict {
		verdict, _ := m.m.decide(v)
		return verdict
	})
}
