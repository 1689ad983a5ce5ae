// Command prerel puts prerelease-matching policies for version constraints
// side by side.
//
// Usage:
//
//	prerel policies                         list the registered policies
//	prerel check CONSTRAINT VERSION...      one verdict per version and policy
//	prerel eval                             batch mode: CONSTRAINT<TAB>VERSION lines on stdin
//	prerel select CONSTRAINT VERSION...     the version each policy would install
//	prerel explain --policy P CONSTRAINT VERSION
//	                                        one policy's reasoning, comparator by comparator
//	prerel compare                          the differential report over a domain
//	prerel resolve DIR                      per module and provider: each policy's version next to today's
//
// Flags come before the arguments. Exit status: 0 success, 1 a finding (for
// example a baseline drift), 2 bad usage or input the engine cannot parse.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/prerel/prerel/engine"

	// The native policies and the library adapters register themselves.
	_ "github.com/prerel/prerel/adapters"
	_ "github.com/prerel/prerel/policies"
)

// Exit codes.
const (
	exitOK      = 0
	exitFinding = 1
	exitUsage   = 2
)

// usageError is bad usage or bad input: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// findingError is a finding such as baseline drift: exit status 1. Its
// message has already been printed when it is empty.
type findingError struct{ msg string }

func (e findingError) Error() string { return e.msg }

// env is what a command reads and writes, so that tests can run commands
// in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	registry       *engine.Registry
	getenv         func(string) string
	stderrIsTTY    bool
}

type command struct {
	name, args, summary string
	run                 func(e *env, args []string) error
}

var commands []command

func init() {
	commands = []command{
		{"policies", "", "list the registered policies and their rules", runPolicies},
		{"check", "[flags] CONSTRAINT VERSION...", "judge versions against a constraint with every policy", runCheck},
		{"eval", "[flags] < CONSTRAINT<TAB>VERSION lines", "batch mode for scripts: one verdict line per input line", runEval},
		{"select", "[flags] CONSTRAINT [VERSION...]", "the version each policy would install", runSelect},
		{"explain", "--policy P [flags] CONSTRAINT VERSION", "one policy's reasoning, comparator by comparator", runExplain},
		{"compare", "[flags]", "the differential report: where the policies agree and diverge, with witnesses", runCompare},
		{"resolve", "[flags] DIR", "per module call and provider of a root module: its chosen policy's version next to today's", runResolve},
	}
}

func main() {
	e := &env{
		stdin:       os.Stdin,
		stdout:      os.Stdout,
		stderr:      os.Stderr,
		registry:    engine.Default,
		getenv:      os.Getenv,
		stderrIsTTY: isTerminal(os.Stderr),
	}
	os.Exit(run(e, os.Args[1:]))
}

// run dispatches to a subcommand and maps its error to an exit status.
func run(e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(e.stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(e, args[1:])
		var ue usageError
		var fe findingError
		switch {
		case err == nil:
			return exitOK
		case errors.Is(err, flag.ErrHelp):
			return exitOK
		case errors.As(err, &fe):
			if fe.msg != "" {
				fmt.Fprintf(e.stderr, "prerel %s: %s\n", c.name, fe.msg)
			}
			return exitFinding
		case errors.As(err, &ue):
			fmt.Fprintf(e.stderr, "prerel %s: %s\n", c.name, err)
			return exitUsage
		default:
			fmt.Fprintf(e.stderr, "prerel %s: %s\n", c.name, err)
			return exitUsage
		}
	}
	fmt.Fprintf(e.stderr, "prerel: unknown command %q\n\n", args[0])
	printUsage(e.stderr)
	return exitUsage
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "prerel puts prerelease-matching policies for version constraints side by side.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	for _, c := range commands {
		fmt.Fprintf(w, "  prerel %-8s %s\n", c.name, c.args)
		fmt.Fprintf(w, "           %s\n", c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'prerel COMMAND -h' for a command's flags. Exit status: 0 success,")
	fmt.Fprintln(w, "1 a finding (such as baseline drift), 2 bad usage or unparsable input.")
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(e *env, name, args, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet("prerel "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: prerel %s %s\n\n%s\n\nFlags:\n", name, args, summary)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and turns flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	return nil
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

func (e *env) resolve(names policyList) ([]engine.Policy, error) {
	ps, err := e.registry.Resolve(names)
	if err != nil {
		return nil, usageError{err}
	}
	if len(ps) == 0 {
		return nil, usagef("no policies are registered")
	}
	return ps, nil
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

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
