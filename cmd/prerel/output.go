package main

import (
	"encoding/json"
	"io"

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

// renderOptions are the options of a report's renderer: showAll, and the
// flags that show what a text report cuts, as the renderer names them.
func renderOptions(showAll bool) report.Options {
	return report.Options{ShowAll: showAll, ShowAllHint: "--" + showAllFlag, WholeHint: "--format json"}
}
