package engine

import (
	"strings"
	"testing"
)

// explained is baseOnly with an explanation of its own.
type explained struct{ baseOnly }

func (explained) Explain(constraint, version string) Explanation {
	return Explanation{Steps: []Step{{"rule", "B alone"}}, Result: Allowed("said so")}
}

func TestExplain(t *testing.T) {
	tests := []struct {
		p          Policy
		c, v       string
		want       Verdict
		stepsMatch []string
	}{
		{baseOnly{"base"}, ">= 1.0.0", "1.2.0", Allow, []string{"does not explain", "accepted", "allow: holds"}},
		{baseOnly{"base"}, ">= 1.0.0", "0.2.0", Reject, []string{"reject: does not hold"}},
		{baseOnly{"base"}, ">= x", "1.0.0", Invalid, []string{"refused the constraint: constraint \">= x\": column 4"}},
		{baseOnly{"base"}, ">= 1.0.0", "1.0", Invalid, []string{"invalid: version \"1.0\": column 4"}},
		{explained{baseOnly{"x"}}, "whatever", "1.0.0", Allow, []string{"B alone"}},
	}
	for _, tt := range tests {
		x := Explain(tt.p, tt.c, tt.v)
		if x.Result.Verdict != tt.want {
			t.Errorf("Explain(%q, %q).Result = %+v, want %v", tt.c, tt.v, x.Result, tt.want)
		}
		if _, ok := tt.p.(Explainer); !ok && x.Result != Evaluate(tt.p, tt.c, tt.v) {
			t.Errorf("Explain(%q, %q).Result = %+v, Evaluate %+v", tt.c, tt.v, x.Result, Evaluate(tt.p, tt.c, tt.v))
		}
		var all []string
		for _, s := range x.Steps {
			if s.Subject == "" || s.Detail == "" {
				t.Errorf("Explain(%q, %q): empty step %+v", tt.c, tt.v, s)
			}
			all = append(all, s.Subject+": "+s.Detail)
		}
		text := strings.Join(all, "\n")
		for _, want := range tt.stepsMatch {
			if !strings.Contains(text, want) {
				t.Errorf("Explain(%q, %q) steps lack %q:\n%s", tt.c, tt.v, want, text)
			}
		}
	}
}
