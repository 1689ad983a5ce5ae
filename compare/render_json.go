package compare

import (
	"encoding/json"
	"errors"
	"io"
)

// RenderJSON writes r as indented JSON: an object with "schema",
// "domain" (name, description, cases), "policies", "pairs" (a, b, agree,
// diverge), "classes" (a, b, signature, cause, count, witness with
// constraint, version, a_verdict, b_verdict, a_reason, b_reason) and, for
// domains of real histories, "selection". The characters < > & are written
// as they are.
func RenderJSON(w io.Writer, r *Report) error {
	if w == nil || r == nil {
		return errors.New("compare: render needs a writer and a report")
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
