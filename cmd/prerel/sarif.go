package main

import "github.com/prerel/prerel/report"

// sarifFormat is --format sarif, a SARIF 2.1.0 log for code scanning,
// which the renderers of resolve, pin and compare write. Only the
// commands whose findings stand at a place in the user's files take it
// (resolve, pin --check, compare --baseline): it is not among
// report.Formats, and each adds it to its --format itself.
const sarifFormat = string(report.SARIF)
