package main

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/prerel/prerel/catalogue"
)

func TestDoubleDash(t *testing.T) {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fs.String("format", "text", "")
	fs.Bool("verbose", false, "")
	tests := []struct {
		name       string
		args, want []string
	}{
		{"long flags as they are", []string{"--format", "json", "a", "--verbose"}, []string{"--format", "json", "a", "--verbose"}},
		{"one dash", []string{"-format", "json", "a", "-verbose"}, []string{"--format", "json", "a", "--verbose"}},
		{"one dash with a value", []string{"a", "-format=json", "b"}, []string{"a", "--format=json", "b"}},
		{"help", []string{"-help"}, []string{"--help"}},
		{"unknown flag as it is", []string{"-nope", "-x"}, []string{"-nope", "-x"}},
		{"a value that looks like a flag", []string{"--format", "-verbose", "a"}, []string{"--format", "-verbose", "a"}},
		{"a value after one dash", []string{"-format", "-verbose"}, []string{"--format", "-verbose"}},
		{"double dash ends flags", []string{"--", "-format", "-verbose"}, []string{"--", "-format", "-verbose"}},
		{"dash alone", []string{"-", "-verbose"}, []string{"-", "--verbose"}},
		{"missing value", []string{"a", "-format"}, []string{"a", "--format"}},
	}
	for _, tt := range tests {
		if got := doubleDash(fs, tt.args); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: doubleDash(%q) = %q, want %q", tt.name, tt.args, got, tt.want)
		}
	}
}

func TestParseFlagsLeavesArguments(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		format string
		rest   []string
	}{
		{"after", []string{">= 1.0", "1.0.0", "--format", "json"}, "json", []string{">= 1.0", "1.0.0"}},
		{"mixed", []string{">= 1.0", "--format=json", "1.0.0"}, "json", []string{">= 1.0", "1.0.0"}},
		{"double dash", []string{"--", "-1", "--format"}, "text", []string{"-1", "--format"}},
		{"none", nil, "text", nil},
	}
	for _, tt := range tests {
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		format := fs.String("format", "text", "")
		if err := parseFlags(fs, tt.args); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if *format != tt.format || fs.NArg() != len(tt.rest) || strings.Join(fs.Args(), "|") != strings.Join(tt.rest, "|") {
			t.Errorf("%s: format %q, arguments %q; want %q, %q", tt.name, *format, fs.Args(), tt.format, tt.rest)
		}
	}
}

// TestResolvePoliciesRefusesDuplicates checks the check behind every
// command's list of policies, also for lists built in code.
func TestResolvePoliciesRefusesDuplicates(t *testing.T) {
	e := &env{registry: catalogue.New()}
	if _, err := e.resolve(policyList{"strict", "cargo", "strict"}); exitStatus(err) != exitUsage || !strings.Contains(fmt.Sprint(err), `policy "strict" given twice`) {
		t.Errorf("resolve with a duplicate: %v", err)
	}
	if ps, err := e.resolve(policyList{"strict", "cargo"}); err != nil || len(ps) != 2 {
		t.Errorf("resolve: %d policies, %v", len(ps), err)
	}
}

func TestDurationFlag(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"10s", 10 * time.Second, ""},
		{"1m30s", 90 * time.Second, ""},
		{"250ms", 250 * time.Millisecond, ""},
		{"0", 0, ""},
		{"5", 0, `"5" has no unit: write a duration with its unit, such as 5s or 5ms`},
		{"1.5", 0, `"1.5" has no unit`},
		{"-1s", 0, `"-1s" is negative`},
		{"soon", 0, `"soon" is not a duration: write a number and a unit, such as 10s, 1m or 1m30s`},
		{"", 0, "is not a duration"},
	}
	for _, tt := range tests {
		d := time.Hour
		err := durationFlag{&d}.Set(tt.in)
		switch {
		case tt.err == "" && (err != nil || d != tt.want):
			t.Errorf("Set(%q): %v, %v; want %v", tt.in, d, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Set(%q): error %v, want %q", tt.in, err, tt.err)
		}
	}
	code, _, stderr := runCLI(t, "", "resolve", "--timeout", "5", resolveExample)
	want := "prerel resolve: invalid argument \"5\" for \"--timeout\" flag: \"5\" has no unit: write a duration with its unit, such as 5s or 5ms\nRun 'prerel resolve -h' for usage.\n"
	if code != exitUsage || stderr != want {
		t.Errorf("resolve --timeout 5: exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
	code, out, _ := runCLI(t, "", "resolve", "-h")
	if code != exitOK || !strings.Contains(out, "-timeout DURATION") || !strings.Contains(out, "(default 10s)") {
		t.Errorf("resolve -h: exit %d, the timeout is not shown as a DURATION with its default:\n%s", code, out)
	}
	// Every duration flag of every command is a durationFlag: the help
	// shows none with the type name of fs.DurationVar.
	for _, c := range commands {
		_, out, _ := runCLI(t, "", c.name, "-h")
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "  -") && strings.HasSuffix(line, " duration") {
				t.Errorf("prerel %s -h: %q is read by the flag package, which takes \"5\" for no unit", c.name, line)
			}
		}
	}
}

// TestFormatsOffered checks that each command's --format offers the
// formats its report's renderer declares, SARIF only where the findings
// stand in the user's files, and that its help names them.
func TestFormatsOffered(t *testing.T) {
	want := map[string]string{
		"policies": "text or json",
		"check":    "text, json or html",
		"eval":     "tsv or json",
		"select":   "text, json or html",
		"explain":  "text or json",
		"compare":  "text, markdown, json, html or sarif",
		"merge":    "text, markdown, json or html",
		"resolve":  "text, markdown, json or sarif",
		"pin":      "text, markdown, json or sarif",
		"impact":   "text, markdown, json or html",
	}
	for _, c := range commands {
		fs := newFlags(c)
		c.flags(fs)
		f := fs.Lookup("format")
		if f == nil {
			if want[c.name] != "" {
				t.Errorf("%s has no --format", c.name)
			}
			continue
		}
		if got := f.Value.(*formatFlag).formats.String(); got != want[c.name] {
			t.Errorf("%s --format offers %s, want %s", c.name, got, want[c.name])
		}
		if !strings.HasSuffix(f.Usage, want[c.name]) {
			t.Errorf("%s --format help %q does not name %s", c.name, f.Usage, want[c.name])
		}
	}
}
