package main

import (
	"io"

	"github.com/prerel/prerel/internal/sarif"
	"github.com/prerel/prerel/report"
)

// sarifFormat is --format sarif, a SARIF 2.1.0 log for code scanning.
// Only the commands whose findings stand at a place in the user's files
// take it (resolve, pin --check, compare --baseline): it is not among
// report.Formats, and each adds it to its --format itself.
const sarifFormat = string(report.SARIF)

// writeSARIF writes the findings of one run, with the rules they come
// from, as a SARIF log.
func writeSARIF(w io.Writer, rules []sarif.Rule, results []sarif.Result) error {
	var l sarif.Log
	l.AddRules(rules...)
	l.Results = results
	return sarif.Write(w, l)
}
