package main

import (
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.String("format", "text", "")
	fs.Bool("verbose", false, "")
	tests := []struct {
		name             string
		args             []string
		flags, arguments []string
	}{
		{"flags first", []string{"--format", "json", "a", "b"}, []string{"--format", "json"}, []string{"a", "b"}},
		{"flags last", []string{"a", "b", "--format", "json"}, []string{"--format", "json"}, []string{"a", "b"}},
		{"flags between", []string{"a", "-format=json", "b", "--verbose"}, []string{"-format=json", "--verbose"}, []string{"a", "b"}},
		{"bool flag takes no value", []string{"--verbose", "a"}, []string{"--verbose"}, []string{"a"}},
		{"double dash ends flags", []string{"--format", "json", "--", "--verbose", "-1"}, []string{"--format", "json"}, []string{"--verbose", "-1"}},
		{"double dash after an argument", []string{"a", "--", "-b"}, nil, []string{"a", "-b"}},
		{"double dash as a value", []string{"--format", "--", "a"}, []string{"--format", "--"}, []string{"a"}},
		{"dash alone is an argument", []string{"-", "--format", "json"}, []string{"--format", "json"}, []string{"-"}},
		{"value that looks like a flag", []string{"--format", "-x", "a"}, []string{"--format", "-x"}, []string{"a"}},
		{"missing value", []string{"a", "--format"}, []string{"--format"}, []string{"a"}},
		{"unknown flag", []string{"--nope", "a"}, []string{"--nope"}, []string{"a"}},
	}
	for _, tt := range tests {
		flags, arguments := splitArgs(fs, tt.args)
		if !reflect.DeepEqual(flags, tt.flags) || !reflect.DeepEqual(arguments, tt.arguments) {
			t.Errorf("%s: splitArgs(%q) = %q, %q; want %q, %q", tt.name, tt.args, flags, arguments, tt.flags, tt.arguments)
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
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
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
		{"resolve, index after the directory", "", []string{"resolve", resolveExample, "--index", resolveIndex}, []string{"default policy: cargo"}},
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
		{[]string{"check", "-1.0", "1.0.0"}, exitUsage, "flag provided but not defined: -1.0"},
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
