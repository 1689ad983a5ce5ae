package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/prerel/prerel/compare"
)

// flagsNote is how every command reads its flags, for its usage text.
const flagsNote = `Flags may come before, between or after the arguments; "--" ends the flags.`

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(e *env, name, args, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet("prerel "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: prerel %s %s\n\n%s\n\n%s\n\nFlags:\n", name, args, summary, flagsNote)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses the flags of args wherever they stand, before, between
// or after the positional arguments; "--" ends the flags, so that an
// argument after it may start with "-". Afterwards fs.Args() holds the
// positional arguments, in order. A flag error is a usage error; -h and
// -help give flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) error {
	flags, positional := splitArgs(fs, args)
	if err := fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usage(err)
	}
	// Parsing "--" and the positional arguments sets no flag and leaves
	// fs.Args() holding exactly the positional arguments.
	return fs.Parse(append([]string{"--"}, positional...))
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
type policyList []string

func (l *policyList) String() string { return strings.Join(*l, ",") }

func (l *policyList) Set(s string) error {
	*l = nil
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return fmt.Errorf("empty policy name in %q", s)
		}
		*l = append(*l, name)
	}
	return nil
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

// compareFormat is the --format flag of compare: one of compare.Formats,
// read by compare.ParseFormat.
type compareFormat struct{ format compare.Format }

func (f *compareFormat) String() string { return string(f.format) }

func (f *compareFormat) Set(s string) error {
	format, err := compare.ParseFormat(s)
	if err != nil {
		return err
	}
	f.format = format
	return nil
}

// compareFormatNames is compare.Formats as "text, markdown or json".
func compareFormatNames() string {
	names := make([]string, len(compare.Formats))
	for i, f := range compare.Formats {
		names[i] = string(f)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
