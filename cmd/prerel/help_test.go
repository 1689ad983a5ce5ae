package main

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/golden"
)

// helpWidth is the widest a line of help may be, in terminal columns.
const helpWidth = 80

// TestHelpWidth checks that 'prerel --help' and every command's -h write
// their help to stdout, and that every line of it fits in helpWidth
// columns, tabs expanded to the next multiple of 8 as a terminal shows
// them.
func TestHelpWidth(t *testing.T) {
	tests := [][]string{{"--help"}}
	for _, c := range commands {
		tests = append(tests, []string{c.name, "-h"})
	}
	for _, args := range tests {
		name := "prerel " + strings.Join(args, " ")
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", args...)
			if code != exitOK || stdout == "" || stderr != "" {
				t.Fatalf("%s: exit %d, stdout %q, stderr %q; want exit %d and help on stdout only",
					name, code, stdout, stderr, exitOK)
			}
			for i, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
				if w := columns(line); w > helpWidth {
					t.Errorf("%s: line %d is %d columns wide, more than %d:\n%s",
						name, i+1, w, helpWidth, line)
				}
			}
		})
	}
}

// columns is how many terminal columns line takes, a tab advancing to the
// next multiple of 8.
func columns(line string) int {
	n := 0
	for _, r := range line {
		if r == '\t' {
			n += 8 - n%8
		} else {
			n++
		}
	}
	return n
}

func TestColumns(t *testing.T) {
	tests := []struct {
		line string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"\tx", 9},
		{"    \tx", 9},
		{"1234567\tx", 9},
		{"12345678\tx", 17},
		{"é", 1},
	}
	for _, tt := range tests {
		if got := columns(tt.line); got != tt.want {
			t.Errorf("columns(%q) = %d, want %d", tt.line, got, tt.want)
		}
	}
}

// TestHelpToBrokenPipe checks that help that cannot be written is a
// failed write (testdata/script/help.txtar has the ways of asking for
// help).
func TestHelpToBrokenPipe(t *testing.T) {
	runExitCases(t, []exitCase{
		{name: "help to a broken pipe", args: []string{"--help"}, stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
		{name: "command help to a broken pipe", args: []string{"check", "-h"}, stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
		{name: "version to a broken pipe", args: []string{"--version"}, stdout: failingWriter{}, code: exitFailure, stderr: "broken pipe"},
	})
}

// TestHelpFlagsSection checks that a command's help has a Flags section
// exactly when the command has flags.
func TestHelpFlagsSection(t *testing.T) {
	for _, c := range commands {
		_, out, _ := runCLI(t, "", c.name, "-h")
		hasFlags := strings.Contains(out, "\n  -")
		if strings.Contains(out, "Flags:") != hasFlags || strings.HasSuffix(out, "Flags:\n") {
			t.Errorf("prerel %s -h: a Flags section that does not fit its flags:\n%s", c.name, out)
		}
	}
	for _, name := range []string{"version"} {
		if _, out, _ := runCLI(t, "", name, "-h"); strings.Contains(out, "Flags") {
			t.Errorf("prerel %s -h has a Flags section:\n%s", name, out)
		}
	}
}

func TestModuleVersion(t *testing.T) {
	tests := []struct {
		info *debug.BuildInfo
		want string
	}{
		{nil, "(devel)"},
		{&debug.BuildInfo{}, "(devel)"},
		{&debug.BuildInfo{Main: debug.Module{Path: "github.com/prerel/prerel", Version: "(devel)"}}, "(devel)"},
		{&debug.BuildInfo{Main: debug.Module{Path: "github.com/prerel/prerel", Version: "v1.2.3"}}, "v1.2.3"},
	}
	for _, tt := range tests {
		if got := moduleVersion(tt.info); got != tt.want {
			t.Errorf("moduleVersion(%+v) = %q, want %q", tt.info, got, tt.want)
		}
	}
}

// TestDocCommandList checks that the command list of the package
// documentation, in doc.go, is the one of 'prerel --help', made from the
// commands' definitions. go generate (go test -run TestDocCommandList
// -update) rewrites it.
func TestDocCommandList(t *testing.T) {
	data, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	const start, end = "// Usage:\n//\n", "\n//\n"
	i := strings.Index(string(data), start)
	if i < 0 {
		t.Fatalf("doc.go has no %q", start)
	}
	i += len(start)
	j := i + strings.Index(string(data[i:]), end) + 1
	var list strings.Builder
	writeCommandList(&list, "\t")
	var want strings.Builder
	for _, line := range strings.SplitAfter(strings.TrimSuffix(list.String(), "\n"), "\n") {
		want.WriteString("//" + line)
	}
	want.WriteString("\n")
	got := string(data[i:j])
	if got == want.String() {
		return
	}
	if golden.Update() {
		data = []byte(string(data[:i]) + want.String() + string(data[j:]))
		if err := os.WriteFile("doc.go", data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("doc.go's command list is not the one of the commands' definitions; run go generate ./cmd/prerel.\ngot:\n%s\nwant:\n%s", got, want.String())
}
