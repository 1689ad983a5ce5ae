package compare

import (
	"errors"
	"io"
)

// RenderJSON writes r as indented JSON: an object with "schema",
// "domain" (name, description, cases), "policies", "pairs" (a, b, agree,
// diverge), "classes" (a, b, signature, cause, count, witness with
// constraint, version, a_verdict, b_verdict, a_reason, b_reason) and, for
// domains of real histories, "selection". The characters < > & are written
// as they are. The report is written as it is encoded, a class at a time,
// not held whole in memory.
func RenderJSON(w io.Writer, r *Report) error {
	if w == nil || r == nil {
		return errors.New("compare: render needs a writer and a report")
	}
	return streamJSON(w, r, true)
}
