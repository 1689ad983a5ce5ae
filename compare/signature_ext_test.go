package compare_test

import (
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

func TestSignature(t *testing.T) {
	tests := []struct {
		a, b                engine.Policy
		constraint, version string
		want                string
	}{
		{linear, sameBase, ">= 1.0.0", "1.2.0", ""},
		{sameBase, linear, ">= 1.0.0-beta, < 1.0.0", "1.0.0-rc.1", ""},
		{linear, sameBase, ">= 1.0.0-beta, < 2.0.0", "2.0.0-rc.1", ">= V-pre [>], < V [=]; version V-pre; a allow, b reject"},
		{sameBase, linear, ">= 1.0.0-beta, < 2.0.0", "2.0.0-rc.1", ">= V-pre [>], < V [=]; version V-pre; a reject, b allow"},
		{linear, noV, ">= 1.0.0-beta, < v2.0.0", "1.5.0", "constraint refused: < vV; a allow, b invalid"},
		{noV, linear, ">= 1.0.0-beta, <v2.0.0", "1.0.0-rc.1", "constraint refused: <vV; a invalid, b allow"},
		{linear, noV, ">= 1.0.0", "v1.2.0-beta", "version refused: vV-pre; a allow, b invalid"},
		{linear, single, ">= 1.0.0, < 2.0.0", "1.5.0", "constraint refused together: >= V, < V; a allow, b invalid"},
		{lenient{}, linear, ">= 4.84 < 6", "4.84.1", `constraint refused: syntax ">= N.N < N"; a allow, b invalid`},
		{lenient{}, linear, ">= 4.0.0", "4.84", `version refused: syntax "N.N"; a allow, b invalid`},
	}
	for _, tt := range tests {
		if got := compare.Signature(tt.a, tt.b, tt.constraint, tt.version); got != tt.want {
			t.Errorf("Signature(%s, %s, %q, %q) =\n  %s\nwant\n  %s", tt.a.Name(), tt.b.Name(), tt.constraint, tt.version, got, tt.want)
		}
	}
}
