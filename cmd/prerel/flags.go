package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	comparerender "github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/terraform/registry"
)

// flagsNote is how every command reads its flags, for its usage text.
const flagsNote = `Flags may come before, between or after the arguments; "--" ends the flags.`

// newFlags returns a flag set that reports errors instead of exiting and
// prints nothing itself: parseFlags writes the help (-h) to stdout, and a
// flag error reaches stderr once, through run, with a hint.
func newFlags(e *env, name, args, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet("prerel "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() { writeFlagsHelp(e.stdout, fs, name, args, summary) }
	return fs
}

// writeFlagsHelp writes a command's help: its usage line, what it does,
// how flags are read and its flags, when it has any.
func writeFlagsHelp(w io.Writer, fs *flag.FlagSet, name, args, summary string) {
	usageLine := strings.TrimSpace("prerel " + name + " " + args)
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", usageLine, summary)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n\nFlags:\n", flagsNote)
	out := fs.Output()
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(out)
}

// parseFlags parses the flags of args wherever they stand, before, between
// or after the positional arguments; "--" ends the flags, so that an
// argument after it may start with "-". Afterwards fs.Args() holds the
// positional arguments, in order. A flag error is a usage error with a
// hint to the command's help; -h and -help write the help (fs.Usage) and
// give flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) error {
	help := fs.Usage
	fs.Usage = func() {} // the flag package calls it on errors too
	defer func() { fs.Usage = help }()
	flags, positional := splitArgs(fs, args)
	if err := fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			help()
			return err
		}
		if r := registry.RedactURL(err.Error()); r != err.Error() {
			err = errors.New(r) // a flag value may be a URL with a password
		}
		return withHint(usage(err), fmt.Sprintf("Run '%s -h' for usage.", fs.Name()))
	}
	if err := emptyFlag(fs); err != nil {
		return withHint(usage(err), fmt.Sprintf("Run '%s -h' for usage.", fs.Name()))
	}
	// Parsing "--" and the positional arguments sets no flag and leaves
	// fs.Args() holding exactly the positional arguments.
	return fs.Parse(append([]string{"--"}, positional...))
}

// checksOwnEmptyValue names the flags whose command explains an empty
// value itself, with the values it takes.
var checksOwnEmptyValue = map[string]bool{"domain": true}

// emptyFlag refuses a flag given with an empty value, as in --baseline ""
// from an unset shell variable: prerel would otherwise read it as the
// flag left out and silently do less than asked.
func emptyFlag(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil && !checksOwnEmptyValue[f.Name] && strings.TrimSpace(f.Value.String()) == "" {
			err = fmt.Errorf("--%s is empty: give it a value or leave it out", f.Name)
		}
	})
	return err
}

// splitArgs separates the flags of args, each with its value when the
// value is the next argument, from the positional arguments. Everything
// after "--" is positional, and so is "-" alone.
func splitArgs(fs *flag.FlagSet, args []string) (flags, positional []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flags, append(positional, args[i+1:]...)
		case len(a) < 2 || a[0] != '-':
			positional = append(positional, a)
		default:
			flags = append(flags, a)
			if takesValue(fs, a) && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		}
	}
	return flags, positional
}

// takesValue reports whether the flag argument a ("-name" or "--name")
// names a flag of fs that reads the next argument as its value: a known
// flag that is not boolean, written without "=value".
func takesValue(fs *flag.FlagSet, a string) bool {
	name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	if strings.Contains(name, "=") {
		return false
	}
	f := fs.Lookup(name)
	if f == nil {
		return false // Parse reports the unknown flag
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// policyList is the --policies flag: a comma-separated list of names.
// A repeated flag adds to the list; a name given twice, in one flag or
// across several, is refused.
type policyList []string

func (l *policyList) String() string { return strings.Join(*l, ",") }

func (l *policyList) Set(s string) error {
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return fmt.Errorf("empty policy name in %q", s)
		}
		if slices.Contains(*l, name) {
			return fmt.Errorf("policy %q given twice", name)
		}
		*l = append(*l, name)
	}
	return nil
}

// durationFlag is a flag.Value for a duration written with its unit, as
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
func durationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var(durationFlag{p}, name, usage)
}

// formatFlag is a --format flag limited to the given choices.
type formatFlag struct {
	value   string
	choices []string
}

func (f *formatFlag) String() string { return f.value }

func (f *formatFlag) Set(s string) error {
	for _, c := range f.choices {
		if s == c {
			f.value = s
			return nil
		}
	}
	return fmt.Errorf("unknown format %q (expected %s)", s, strings.Join(f.choices, ", "))
}

// compareFormat is the --format flag of compare: one of comparerender.Formats,
// read by comparerender.ParseFormat.
type compareFormat struct{ format comparerender.Format }

func (f *compareFormat) String() string { return string(f.format) }

func (f *compareFormat) Set(s string) error {
	format, err := comparerender.ParseFormat(s)
	if err != nil {
		return err
	}
	f.format = format
	return nil
}

// compareFormatNames is comparerender.Formats as "text, markdown, json or html".
func compareFormatNames() string {
	names := make([]string, len(comparerender.Formats))
	for i, f := range comparerender.Formats {
		names[i] = string(f)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
