package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/terraform/registry"
)

// flagsNote is how every command reads its flags, for its usage text.
const flagsNote = `Flags may come before, between or after the arguments; "--" ends the flags.`

// flagSet is the set of flags of one command, read by package pflag:
// flags written "--name value" or "--name=value", anywhere among the
// arguments, until "--".
type flagSet = pflag.FlagSet

// errHelp is the error of parseFlags when the help is asked for.
var errHelp = pflag.ErrHelp

// newFlags returns the flag set of c, which reports errors instead of
// exiting and prints nothing itself: runCommand writes the help (-h) to
// stdout, and a flag error reaches stderr once, with a hint.
func newFlags(c *command) *flagSet {
	fs := pflag.NewFlagSet("prerel "+c.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// writeHelp writes c's help: its usage line, what it does, how flags are
// read and its flags, when it has any, each flag as "--name VALUE" on a
// line of its own and its help below, with the default when it is not
// the zero value.
func writeHelp(w io.Writer, c *command, fs *flagSet) {
	usageLine := strings.TrimSpace("prerel " + c.name + " " + c.args)
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", usageLine, c.help)
	if !fs.HasFlags() {
		return
	}
	fmt.Fprintf(w, "\n%s\n\nFlags:\n", flagsNote)
	fs.VisitAll(func(f *pflag.Flag) {
		name, usage := pflag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
		switch {
		case f.DefValue == "", f.DefValue == "0", f.DefValue == "false":
		case f.Value.Type() == "string":
			fmt.Fprintf(w, " (default %q)", f.DefValue)
		default:
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// parseFlags parses the flags of args wherever they stand, before, between
// or after the positional arguments; "--" ends the flags, so that an
// argument after it may start with "-". Afterwards fs.Args() holds the
// positional arguments, in order. A flag error is a usage error with a
// hint to the command's help; -h and --help give errHelp.
func parseFlags(fs *flagSet, args []string) error {
	if err := fs.Parse(doubleDash(fs, args)); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return errHelp
		}
		if _, arg, ok := strings.Cut(err.Error(), "unknown shorthand flag: "); ok {
			// prerel has no one-letter flags: "-x" and "-1.0" are unknown
			// flags, not unknown letters.
			if _, arg, ok = strings.Cut(arg, " in "); ok {
				err = fmt.Errorf("unknown flag: %s", arg)
			}
		}
		var invalid *pflag.InvalidValueError
		if errors.As(err, &invalid) {
			// pflag quotes the value whole: a long one is quoted by its
			// start and end, its password, if it is a URL, redacted
			// first.
			err = fmt.Errorf("invalid argument %q for %q flag: %w", elide.Middle(registry.RedactURL(invalid.GetValue()), 200),
				"--"+invalid.GetFlag().Name, invalid.Unwrap())
		}
		if r := registry.RedactURL(err.Error()); r != err.Error() {
			err = errors.New(r) // a flag value may be a URL with a password
		}
		return withHint(usage(err), fmt.Sprintf("Run '%s -h' for usage.", fs.Name()))
	}
	if err := emptyFlag(fs); err != nil {
		return withHint(usage(err), fmt.Sprintf("Run '%s -h' for usage.", fs.Name()))
	}
	return nil
}

// doubleDash rewrites a flag of fs written with one dash, "-format" or
// "-format=json", as "--format": prerel read its flags with Go's flag
// package, which takes both, before it read them with pflag, and every
// flag of prerel has a long name only. "-help" is "--help". A flag's
// value and the arguments after "--" are left as they are.
func doubleDash(fs *flagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			name, _, _ := strings.Cut(a[1:], "=")
			if fs.Lookup(name) != nil || name == "help" {
				a = "-" + a
			}
		}
		out = append(out, a)
		if name, ok := strings.CutPrefix(a, "--"); ok && !strings.Contains(name, "=") {
			if f := fs.Lookup(name); f != nil && f.NoOptDefVal == "" && i+1 < len(args) {
				i++
				out = append(out, args[i]) // the flag's value
			}
		}
	}
	return out
}

// given returns those of the flags names that fs was given, in the order
// of names, each as "--NAME".
func given(fs *flagSet, names ...string) []string {
	var out []string
	for _, name := range names {
		if fs.Changed(name) {
			out = append(out, "--"+name)
		}
	}
	return out
}

// checksOwnEmptyValue names the flags whose command explains an empty
// value itself, with the values it takes.
var checksOwnEmptyValue = map[string]bool{"domain": true}

// emptyFlag refuses a flag given with an empty value, as in --baseline ""
// from an unset shell variable: prerel would otherwise read it as the
// flag left out and silently do less than asked.
func emptyFlag(fs *flagSet) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if err == nil && !checksOwnEmptyValue[f.Name] && strings.TrimSpace(f.Value.String()) == "" {
			err = fmt.Errorf("--%s is empty: give it a value or leave it out", f.Name)
		}
	})
	return err
}

// valueFlag is a flag whose value parse reads into *v, and text shows
// ("" for none). Type names the value in the help: pflag's default for a
// flag whose help names none in backquotes. Every flag value of prerel
// has one.
type valueFlag[T any] struct {
	v     *T
	typ   string
	parse func(string) (T, error)
	text  func(T) string
}

func (f *valueFlag[T]) Type() string { return f.typ }

func (f *valueFlag[T]) String() string {
	if f.v == nil {
		return ""
	}
	return f.text(*f.v)
}

func (f *valueFlag[T]) Set(s string) error {
	v, err := f.parse(s)
	if err == nil {
		*f.v = v
	}
	return err
}

// listFlag is a repeatable flag: add reads each value given into the
// list, or refuses it; String joins the items' texts with sep.
type listFlag[T any] struct {
	list     *[]T
	typ, sep string
	text     func(T) string
	add      func(list []T, s string) ([]T, error)
}

func (f *listFlag[T]) Type() string { return f.typ }

func (f *listFlag[T]) String() string {
	var s []string
	for _, v := range *f.list {
		s = append(s, f.text(v))
	}
	return strings.Join(s, f.sep)
}

func (f *listFlag[T]) Set(s string) error {
	l, err := f.add(*f.list, s)
	if err == nil {
		*f.list = l
	}
	return err
}

// stringsVar defines on fs a listFlag of strings, shown joined by sep.
func stringsVar(fs *flagSet, list *[]string, name, typ, sep string, add func([]string, string) ([]string, error), usage string) {
	fs.Var(&listFlag[string]{list, typ, sep, func(s string) string { return s }, add}, name, usage)
}

// appendTo is the add of a list flag that takes every value as it is.
func appendTo(list []string, s string) ([]string, error) { return append(list, s), nil }

// policyList is a list of policy names, as --policies gives it.
type policyList = []string

// addPolicyNames is the add of --policies: a comma-separated list of
// names. A repeated flag adds to the list; a name given twice, in one
// flag or across several, is refused.
func addPolicyNames(l []string, s string) ([]string, error) {
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, fmt.Errorf("empty policy name in %q", s)
		}
		if slices.Contains(l, name) {
			return nil, fmt.Errorf("policy %q given twice", name)
		}
		l = append(l, name)
	}
	return l, nil
}

// durationFlag is a pflag.Value for a duration written with its unit, as
// time.ParseDuration reads it ("10s", "1m30s", "500ms"); "0" needs none.
// A bare number is refused with a hint, since it could mean seconds or
// milliseconds, and so is a negative duration.
type durationFlag struct{ d *time.Duration }

func (f durationFlag) String() string {
	if f.d == nil {
		return ""
	}
	return f.d.String()
}

func (f durationFlag) Type() string { return "DURATION" }

func (f durationFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			return fmt.Errorf("%q has no unit: write a duration with its unit, such as %ss or %sms", s, s, s)
		}
		return fmt.Errorf("%q is not a duration: write a number and a unit, such as 10s, 1m or 1m30s", s)
	}
	if d < 0 {
		return fmt.Errorf("%q is negative", s)
	}
	*f.d = d
	return nil
}

// durationVar defines a duration flag on fs, as fs.DurationVar does, read
// by durationFlag. Every duration flag of prerel is defined with it. The
// help names the value after a word in backquotes in usage, as for any
// flag ("`DURATION`").
func durationVar(fs *flagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var(durationFlag{p}, name, usage)
}

// formatFlag is the --format flag: one of the formats a report's
// renderer declares, read by their Parse.
type formatFlag struct {
	value   report.Format
	formats report.Formats
}

func (f *formatFlag) String() string { return string(f.value) }

func (f *formatFlag) Type() string { return "FORMAT" }

func (f *formatFlag) Set(s string) error {
	v, err := f.formats.Parse(s)
	if err == nil {
		f.value = v
	}
	return err
}

// The flags that several commands share are defined by the functions
// below, each with its one help text.

// addPolicies defines --policies, the policies a command runs, in order.
func addPolicies(fs *flagSet) *policyList {
	var names policyList
	stringsVar(fs, &names, "policies", "POLICIES", ",", addPolicyNames, "comma-separated `POLICIES` to run, in this order (default: all, in\nthe order of 'prerel policies --format json')")
	return &names
}

// addFormat defines --format, which takes one of formats, the formats
// the renderer of the command's report declares; the first is the
// default.
func addFormat(fs *flagSet, formats report.Formats) *formatFlag {
	f := &formatFlag{formats[0], formats}
	fs.Var(f, "format", "output `FORMAT`: "+formats.String())
	return f
}

// showAllFlag is the flag that lists everything a text report would
// otherwise cut.
const showAllFlag = "show-all"

// addShowAll defines --show-all.
func addShowAll(fs *flagSet) *bool {
	return fs.Bool(showAllFlag, false, "list everything the report would otherwise cut, instead of the first\nones and a count of the rest")
}

// addBaseline defines --baseline and --write-baseline, of compare and
// merge.
func addBaseline(fs *flagSet) (baseline, write *string) {
	baseline = fs.String("baseline", "", "compare the run with the baseline in `FILE`; exit 1 when they differ")
	write = fs.String("write-baseline", "", "write the run's baseline to `FILE` (atomically; a symbolic link's target\nis written, and an existing file keeps its mode)")
	return baseline, write
}
