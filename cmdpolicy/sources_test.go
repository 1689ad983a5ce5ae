package cmdpolicy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/engine"
)

// fakePolicy is a registered policy for Load to add to.
type fakePolicy struct{ name string }

func (p fakePolicy) Name() string { return p.name }
func (p fakePolicy) Rule() string { return "a test policy" }
func (p fakePolicy) Compile(string) (engine.Matcher, error) {
	return nil, errors.New("not for judging")
}

func TestParseNamed(t *testing.T) {
	tests := []struct {
		in   string
		want Named
		err  string
	}{
		{"rule=python3 rule.py", Named{"rule", "python3 rule.py", []string{"python3", "rule.py"}}, ""},
		{" rule =sh -c 'exit 0'", Named{"rule", "sh -c 'exit 0'", []string{"sh", "-c", "exit 0"}}, ""},
		{"python3 rule.py", Named{}, `expected NAME=COMMAND, got "python3 rule.py"`},
		{"=python3", Named{}, "expected NAME=COMMAND"},
		{"rule=", Named{}, "rule: the command is empty"},
		{"rule=echo $HOME", Named{}, "rule: "},
	}
	for _, tt := range tests {
		got, err := ParseNamed(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseNamed(%q): error %v, want %q", tt.in, err, tt.err)
		case tt.err == "" && (err != nil || got.Name != tt.want.Name || got.Text != tt.want.Text || strings.Join(got.Argv, "|") != strings.Join(tt.want.Argv, "|")):
			t.Errorf("ParseNamed(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

// TestSourcesLoad checks what a run's sources add to the registered
// policies, and what they refuse.
func TestSourcesLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.hcl", "policy \"in-hcl\" {\n  admit = true\n}\n")
	taken := write("taken.hcl", "policy \"today\" {\n  admit = true\n}\n")
	broken := write("broken.hcl", "policy \"broken\" {\n")
	withCmd := write("cmd.hcl", "policy \"from-file\" {\n  command = [\"sh\", \"rule.sh\"]\n}\n")
	sh := Named{Name: "by-cmd", Text: "sh", Argv: []string{"sh"}}
	tests := []struct {
		name string
		s    Sources
		want []string // the names registered, in order
		err  string
		hcl  bool // the error is hcl.Diagnostics
	}{
		{name: "none", want: []string{"today"}},
		{name: "a file and a command", s: Sources{Files: []string{good}, Commands: []Named{sh}}, want: []string{"today", "in-hcl", "by-cmd"}},
		{name: "a command block", s: Sources{Files: []string{withCmd}}, want: []string{"today", "from-file"}},
		{name: "a file twice", s: Sources{Files: []string{good, dir + "/./good.hcl"}},
			err: "--policy-file " + dir + "/./good.hcl: the file " + good + " is already given"},
		{name: "a file's name taken", s: Sources{Files: []string{taken}}, hcl: true, err: "today"},
		{name: "a broken file", s: Sources{Files: []string{broken}}, hcl: true, err: "broken.hcl"},
		{name: "a command's name taken", s: Sources{Commands: []Named{{Name: "today", Argv: []string{"sh"}}}},
			err: `--policy-cmd today: a policy named "today" is already registered`},
		{name: "a command not there", s: Sources{Commands: []Named{{Name: "gone", Argv: []string{"no-such-program-here"}}}},
			err: "--policy-cmd gone: "},
		{name: "a credential", s: Sources{Commands: []Named{sh}, Options: Options{Env: []string{"GITHUB_TOKEN"}}},
			err: "--policy-cmd-env GITHUB_TOKEN: the variable holds a credential"},
		{name: "a credential allowed", s: Sources{Commands: []Named{sh}, AllowCredentials: true, Options: Options{Env: []string{"GITHUB_TOKEN"}}},
			want: []string{"today", "by-cmd"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := engine.NewRegistry()
			if err := reg.Register(fakePolicy{"today"}); err != nil {
				t.Fatal(err)
			}
			l, err := tt.s.Load(reg)
			if tt.err != "" {
				var diags hcl.Diagnostics
				if err == nil || !strings.Contains(err.Error(), tt.err) || errors.As(err, &diags) != tt.hcl {
					t.Fatalf("Load: %v, want an error with %q (diagnostics: %v)", err, tt.err, tt.hcl)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if got := strings.Join(l.Registry.Names(), " "); got != strings.Join(tt.want, " ") {
				t.Errorf("registered %s, want %s", got, strings.Join(tt.want, " "))
			}
			if len(reg.Names()) != 1 {
				t.Errorf("Load changed the registry it was given: %v", reg.Names())
			}
			if l.Context.Err() != nil {
				t.Error("the context is done before any command failed")
			}
			if err := l.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			if l.Context.Err() == nil {
				t.Error("the context is not done after Close")
			}
		})
	}
}
