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

// TestFlagsAnywhere runs every command with its flags after, and between,
// its arguments, and with "--" before arguments that start with "-".
func TestFlagsAnywhere(t *testing.T) {
	cases := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n")
	versions := writeVersions(t, "1.0.0", "1.1.0")
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  []string
	}{
		{"policies", "", []string{"policies", "-h"}, nil},
		{"check, flags after", "", []string{"check", ">= 1.0", "1.0.0", "--policies", "strict,cargo"}, []string{"VERSION  strict  cargo"}},
		{"check, mixed", "", []string{"check", "--format", "json", ">= 1.0", "--policies", "strict", "1.0.0"}, []string{`"policy": "strict"`}},
		{"check, double dash", "", []string{"check", "--policies", "strict", "--", ">= 1.0", "1.0.0"}, []string{"1.0.0    allow"}},
		{"eval, flags after nothing", ">= 1\t1.0.0\n", []string{"eval", "--policies", "strict"}, []string{">= 1\t1.0.0\tallow\n"}},
		{"select, flags after", "", []string{"select", ">= 1", "1.0.0", "1.1.0", "--policies", "strict"}, []string{"strict  1.1.0"}},
		{"explain, policy last", "", []string{"explain", ">= 1", "1.0.0", "--policy", "strict"}, []string{"policy:     strict"}},
		{"compare, flags anywhere", "", []string{"compare", "--domain", cases, "--policies=strict,cargo", "--format", "json"}, []string{`"strict"`}},
		{"resolve, index after the directory", "", []string{"resolve", resolveExample, "--index", resolveIndex, "--lock-file", "-"}, []string{"default policy: cargo"}},
		{"check, policies last", "", []string{"check", ">= 1.0", "1.0.0", "--policies", "strict"}, []string{"1.0.0    allow"}},
		{"select, versions file last", "", []string{"select", ">= 1.0", "--versions-file", versions, "--policies", "strict"}, []string{"strict  1.1.0"}},
		{"resolve, policy after the directory", "", []string{"resolve", resolveExample, "--policy", "cargo", "--index", resolveIndex, "--lock-file", "-"}, []string{"default policy: cargo"}},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, tt.stdin, tt.args...)
		if code != exitOK {
			t.Errorf("prerel %q: exit %d: %s", tt.args, code, stderr)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("prerel %q: output lacks %q:\n%s", tt.args, w, out)
			}
		}
	}
}

// TestDoubleDashKeepsDashedArguments checks that an argument starting with
// "-" after "--" reaches the command as an argument.
func TestDoubleDashKeepsDashedArguments(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"check", "-1.0", "1.0.0"}, exitUsage, "unknown flag: -1.0"},
		{[]string{"check", "--", "-1.0", "1.0.0"}, exitUsage, `constraint "-1.0": column 1`},
		{[]string{"select", "--policies", "strict", "--", "-1.0", "--format"}, exitUsage, `constraint "-1.0": column 1`},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, "", tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("prerel %q: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, tt.code, tt.stderr)
		}
	}
}

// TestRepeatedFlags checks that a repeated list flag adds to the list,
// and that a name given twice, in one flag or in two, is a usage error,
// the same in every command.
func TestRepeatedFlags(t *testing.T) {
	cases := writeCases(t, ">= 1.0.0-beta, < 1.0.0\t1.0.0-rc.1\n")
	tests := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stdout string // a part of stdout
		stderr string // a part of stderr
	}{
		{name: "check adds repeated policies", args: []string{"check", "--policies", "strict", "--policies", "cargo", ">= 1.0", "1.0.0"},
			code: exitOK, stdout: "VERSION  strict  cargo"},
		{name: "eval adds repeated policies", stdin: ">= 1\t1.0.0\n", args: []string{"eval", "--policies", "strict", "--policies=cargo,lexical"},
			code: exitOK, stdout: ">= 1\t1.0.0\tallow\tallow\tallow\n"},
		{name: "check, a policy twice in one flag", args: []string{"check", "--policies", "strict,strict", ">= 1.0", "1.0.0"},
			code: exitUsage, stderr: `policy "strict" given twice`},
		{name: "check, a policy in two flags", args: []string{"check", "--policies", "strict,cargo", "--policies", "strict", ">= 1.0", "1.0.0"},
			code: exitUsage, stderr: `policy "strict" given twice`},
		{name: "eval, a policy twice", stdin: ">= 1\t1.0.0\n", args: []string{"eval", "--policies", "strict,strict"},
			code: exitUsage, stderr: `policy "strict" given twice`},
		{name: "select, a policy twice", args: []string{"select", "--policies", "cargo,cargo", ">= 1.0", "1.0.0"},
			code: exitUsage, stderr: `policy "cargo" given twice`},
		{name: "compare, a policy twice", args: []string{"compare", "--domain", cases, "--policies", "strict,strict"},
			code: exitUsage, stderr: `prerel compare: invalid argument "strict,strict" for "--policies" flag: policy "strict" given twice`},
		{name: "resolve, extra policies twice", args: []string{"resolve", "--index", resolveIndex, "--policies", "strict", "--policies", "strict", resolveExample},
			code: exitUsage, stderr: `policy "strict" given twice`},
		{name: "resolve, a module call twice", args: []string{"resolve", "--index", resolveIndex, "--module-policy", "m=cargo", "--module-policy", "m=strict", resolveExample},
			code: exitUsage, stderr: `"m" given twice: m=cargo and m=strict`},
		{name: "resolve, the same module policy twice", args: []string{"resolve", "--index", resolveIndex, "--module-policy", "m=cargo", "--module-policy", "m=cargo", resolveExample},
			code: exitUsage, stderr: `"m" given twice`},
		{name: "resolve, a provider twice", args: []string{"resolve", "--index", resolveIndex, "--provider-policy", "hashicorp/aws=cargo", "--provider-policy", "hashicorp/aws=strict", resolveExample},
			code: exitUsage, stderr: `"hashicorp/aws" given twice`},
		{name: "resolve, a registry host twice", args: []string{"resolve", "--registry-url", "reg.example=http://127.0.0.1:1/a", "--registry-url", "reg.example=http://127.0.0.1:1/b", resolveExample},
			code: exitUsage, stderr: `a URL for host "reg.example" is already given`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("prerel %q: exit %d, stdout %q, stderr %q; want exit %d, %q and %q", tt.args, code, out, stderr, tt.code, tt.stdout, tt.stderr)
			}
			if strings.Contains(stderr, "compare: compare:") {
				t.Errorf("prerel %q: a doubled prefix: %s", tt.args, stderr)
			}
		})
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

// TestFlagErrorPrintedOnce checks that a flag error is printed once, with
// a hint to the command's help and without the help itself.
func TestFlagErrorPrintedOnce(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"policies", "--bogus"}, "prerel policies: unknown flag: --bogus\nRun 'prerel policies -h' for usage.\n"},
		{[]string{"check", "--bogus", ">= 1", "1.0.0"}, "prerel check: unknown flag: --bogus\nRun 'prerel check -h' for usage.\n"},
		{[]string{"check", ">= 1", "1.0.0", "--format"}, "prerel check: flag needs an argument: --format\nRun 'prerel check -h' for usage.\n"},
		{[]string{"eval", "--format", "xml"}, "prerel eval: invalid argument \"xml\" for \"--format\" flag: unknown format \"xml\" (expected tsv, json)\nRun 'prerel eval -h' for usage.\n"},
		{[]string{"frobnicate"}, "prerel: unknown command \"frobnicate\"\nRun 'prerel --help' for usage.\n"},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, "", tt.args...)
		if code != exitUsage || out != "" || stderr != tt.stderr {
			t.Errorf("prerel %q: exit %d, stdout %q, stderr %q; want exit 2 and only %q", tt.args, code, out, stderr, tt.stderr)
		}
	}
}

// TestEmptyFlagValues checks that a flag given an empty value, as from an
// unset shell variable, is refused rather than read as left out.
func TestEmptyFlagValues(t *testing.T) {
	tests := [][]string{
		{"compare", "--scope", "1", "--baseline", ""},
		{"compare", "--scope", "1", "--write-baseline", ""},
		{"compare", "--scope", "1", "--reference", ""},
		{"select", "--versions-file", "", ">= 1", "1.0.0"},
		{"resolve", "--index", "", resolveExample},
		{"resolve", "--config", "", "--index", resolveIndex, resolveExample},
		{"impact", "--policy", ""},
		{"explain", "--policy", "", ">= 1", "1.0.0"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", args...)
			var name string
			for i, a := range args {
				if i+1 < len(args) && args[i+1] == "" {
					name = a
				}
			}
			want := name + " is empty: give it a value or leave it out"
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout, stderr, exitUsage, want)
			}
		})
	}
}
