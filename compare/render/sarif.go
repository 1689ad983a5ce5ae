package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/internal/sarif"
	"github.com/prerel/prerel/report"
)

// FormatSARIF is the drift from a baseline as a SARIF 2.1.0 log, for
// code scanning; it is not among Formats, since a report without a
// baseline has no findings.
const FormatSARIF = report.SARIF

// RuleDrift is the ID of the SARIF rule of a drift from a baseline.
const RuleDrift = "baseline-drift"

// SARIFRules are the rules of DriftSARIF's results.
var SARIFRules = []sarif.Rule{{ID: RuleDrift, Level: sarif.Error, HelpURI: sarif.DocsURI + "ci.md#gate-on-drift",
	Short: "A policy's verdicts differ from the baseline.",
	Help: "The run of `prerel compare` differs from the baseline: a policy's verdicts changed, or a pair, class or " +
		"selection appeared, disappeared or changed. If the change is intended, rewrite the baseline with " +
		"`prerel compare --write-baseline FILE` and commit it; otherwise the change is a regression."}}

// renderSARIF writes the drift of opts as a SARIF log, each change at
// the line of its entry in the baseline file, which it reads again
// (bounded as the baseline is read); a baseline it cannot read again (a
// pipe) puts them at the file.
func renderSARIF(w io.Writer, opts Options) error {
	if opts.Drift == nil {
		return errors.New("compare: the sarif format is the drift from a baseline, and there is none")
	}
	data, err := safefile.ReadNamed(opts.BaselinePath, safefile.ReportLimit)
	if err != nil {
		data = nil
	}
	return sarif.Write(w, sarif.Log{Rules: SARIFRules, Results: DriftSARIF(opts.Drift, opts.BaselinePath, data)})
}

// DriftSARIF returns the drift from the baseline at path as SARIF
// results of SARIFRules: one per policy whose verdicts changed, at its
// line of the baseline's verdicts, then one per change listed, at the
// line of its entry (a pair, a class, the domain, the policies, the
// selection) in baseline, the baseline's content; at the line of the
// list it would be in for an entry the baseline does not have, and at
// the file when baseline is nil or the entry is not found.
func DriftSARIF(d *compare.Drift, path string, baseline []byte) []sarif.Result {
	if d == nil || d.Matches {
		return nil
	}
	lines := bytes.Split(baseline, []byte("\n"))
	at := func(line int) sarif.Location { return sarif.Location{File: path, Line: line} }
	var out []sarif.Result
	for _, pd := range d.Policies {
		msg := fmt.Sprintf("%s: %s", pd.Policy, pd.MovesText())
		if len(pd.Classes) > 0 {
			c := pd.Classes[0]
			msg += fmt.Sprintf("; for example %q with %s (%s)", c.Witness.Constraint, c.Witness.Version, c.Shape)
		}
		out = append(out, sarif.Result{Rule: RuleDrift, Location: at(verdictsLine(lines, pd.Policy)), Message: msg})
	}
	for _, c := range d.Changes {
		out = append(out, sarif.Result{Rule: RuleDrift, Location: at(changeLine(lines, c)), Message: c.Text})
	}
	if d.ChangesLeft > 0 {
		out = append(out, sarif.Result{Rule: RuleDrift, Location: at(0),
			Message: fmt.Sprintf("and %d more changes: the JSON report lists them", d.ChangesLeft)})
	}
	return out
}

// quoted is s as the baseline writes it: JSON, with "<", ">" and "&"
// escaped as json.Marshal escapes them.
func quoted(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// lineWith is the number (from 1) of the first line of lines, from
// start, that holds every part; 0 for none.
func lineWith(lines [][]byte, start int, parts ...[]byte) int {
	for i := start; i < len(lines); i++ {
		all := true
		for _, p := range parts {
			if !bytes.Contains(lines[i], p) {
				all = false
				break
			}
		}
		if all {
			return i + 1
		}
	}
	return 0
}

// key is `"name":`, a key of the baseline's top-level object.
func key(name string) []byte { return append(quoted(name), ':') }

// verdictsLine is the line of a policy's verdicts in the baseline, or
// that of its policies.
func verdictsLine(lines [][]byte, policy string) int {
	if v := lineWith(lines, 0, key("verdicts")); v > 0 {
		if n := lineWith(lines, v, append(quoted(policy), ':')); n > 0 {
			return n
		}
	}
	return lineWith(lines, 0, key("policies"))
}

// changeLine is the line of a change's entry in the baseline, or of the
// list it belongs to.
func changeLine(lines [][]byte, c compare.Change) int {
	pair := func(list string, extra ...[]byte) int {
		a, b := append([]byte(`"a":`), quoted(c.A)...), append([]byte(`"b":`), quoted(c.B)...)
		if c.Kind != compare.Appeared {
			if n := lineWith(lines, 0, append([][]byte{a, b}, extra...)...); n > 0 {
				return n
			}
			a2, b2 := append([]byte(`"a":`), quoted(c.B)...), append([]byte(`"b":`), quoted(c.A)...)
			if n := lineWith(lines, 0, append([][]byte{a2, b2}, extra...)...); n > 0 {
				return n
			}
		}
		return lineWith(lines, 0, key(list))
	}
	switch c.Subject {
	case "domain":
		return lineWith(lines, 0, key("domain"))
	case "policy":
		return lineWith(lines, 0, key("policies"))
	case "pair":
		return pair("pairs")
	case "class":
		return pair("classes", append([]byte(`"signature":`), quoted(c.Signature)...))
	case "selection", "selection pair":
		return lineWith(lines, 0, key("selection"))
	}
	return 0
}
