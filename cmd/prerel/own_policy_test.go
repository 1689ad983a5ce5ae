package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

// TestOwnPolicyInEveryCommand registers a policy of one's own next to a
// native one and checks that every command runs it with no other change.
func TestOwnPolicyInEveryCommand(t *testing.T) {
	r := engine.NewRegistry()
	for _, p := range []engine.Policy{opaque{}, policies.Fallback{}} {
		if err := r.Register(p); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args  []string
		stdin string
		want  []string
	}{
		{[]string{"policies"}, "", []string{"proposals:\n  fallback\n", "your own:\n  opaque\n      releases from 1.0.0 on\n"}},
		{[]string{"check", ">= 1.0.0", "1.2.0", "1.3.0-rc.1"}, "", []string{"VERSION     opaque  fallback", "1.2.0       allow   allow", "1.3.0-rc.1  reject  allow"}},
		{[]string{"eval"}, ">= 1.0.0\t1.3.0-rc.1\n", []string{">= 1.0.0\t1.3.0-rc.1\treject\tallow\n"}},
		{[]string{"select", ">= 1.0.0", "0.9.0", "1.3.0-rc.1"}, "", []string{"opaque    none", "fallback  1.3.0-rc.1"}},
		{[]string{"explain", "--policy", "opaque", ">= 1.0.0", "1.2.0"}, "", []string{"Match    allow: a release from 1.0.0 on"}},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		e := &env{stdin: strings.NewReader(tt.stdin), stdout: &stdout, stderr: &stderr, registry: r, getenv: func(string) string { return "" }}
		if code := run(e, tt.args); code != exitOK {
			t.Errorf("prerel %q: exit %d: %s", tt.args, code, stderr.String())
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("prerel %q: output lacks %q:\n%s", tt.args, w, stdout.String())
			}
		}
	}
}
