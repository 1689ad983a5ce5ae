package main

import (
	"fmt"
	"io"
	"os"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
)

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
		{"compare", "[flags]", "differential report: where policies agree and diverge, with witnesses", runCompare},
		{"resolve", "[flags] DIR", "each module and provider in DIR: its policy's version next to today's", runResolve},
		{"impact", "--policy P [flags]", "what would install differently for real module calls under policy P", runImpact},
	}
}

func main() {
	e := &env{
		stdin:       os.Stdin,
		stdout:      os.Stdout,
		stderr:      os.Stderr,
		registry:    catalogue.New(),
		getenv:      os.Getenv,
		stderrIsTTY: isTerminal(os.Stderr),
	}
	os.Exit(run(e, os.Args[1:]))
}

// run dispatches to a subcommand, reports its error on stderr and maps it
// to the exit status. A failed write to stdout is an outside failure, also
// when the command itself did not notice it.
func run(e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(e.stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	c, ok := lookupCommand(args[0])
	if !ok {
		fmt.Fprintf(e.stderr, "prerel: unknown command %q\n\n", args[0])
		printUsage(e.stderr)
		return exitUsage
	}
	out := &stickyWriter{w: e.stdout}
	ce := *e
	ce.stdout = out
	err := c.run(&ce, args[1:])
	if out.err != nil && exitStatus(err) < exitUsage {
		err = failure(fmt.Errorf("write to standard output: %w", out.err))
	}
	code := exitStatus(err)
	if code != exitOK {
		fmt.Fprintf(e.stderr, "prerel %s: %s\n", c.name, err)
	}
	return code
}

func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// stickyWriter keeps the first write error; every later write fails with
// it.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
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
	fmt.Fprintln(w, "Run 'prerel COMMAND -h' for a command's flags.")
	fmt.Fprintln(w, flagsNote)
	fmt.Fprintln(w)
	fmt.Fprint(w, exitStatusHelp)
}

func (e *env) resolve(names policyList) ([]engine.Policy, error) {
	ps, err := e.registry.Resolve(names)
	if err != nil {
		return nil, usage(err)
	}
	if len(ps) == 0 {
		return nil, usagef("no policies are registered")
	}
	return ps, nil
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
