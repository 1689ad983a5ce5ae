package main

import (
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/report"
)

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
