package main

import (
	"encoding/json"
	"io"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/report"
)

// newJSONEncoder returns the encoder of every JSON prerel writes: "<",
// ">" and "&" as they are, so that constraints such as "~> 1.2" and
// ">= 1.0, < 2.0" read the same in JSON as on the command line.
func newJSONEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// cliHints are the hints of every report prerel writes, in the words of
// its flags.
var cliHints = report.Hints{
	ShowAll:       "--" + showAllFlag,
	JSON:          "--format json",
	TextShowAll:   "--format text --" + showAllFlag,
	WriteBaseline: "--write-baseline",
	Changes:       "on stderr",
}

// renderOptions are the options of every report's renderer: showAll, the
// hints in the words of prerel's flags, and the policies grouped as
// package catalogue groups them, today's rule marked.
func renderOptions(showAll bool) report.Options {
	return report.Options{ShowAll: showAll, Hints: cliHints, Today: catalogue.Today, Group: catalogue.Group, Groups: catalogue.Groups()}
}
