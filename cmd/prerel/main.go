package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/prerel/prerel/batch"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/cmdpolicy"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/suggest"
	"github.com/prerel/prerel/report"
)

// env is what a command reads and writes, so that tests can run commands
// in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	registry       *engine.Registry
	getenv         func(string) string
	// environ lists the environment as os.Environ does, for the registry
	// credentials; nil reads none.
	environ     func() []string
	stderrIsTTY bool

	// ctx is the run's context, done as soon as a policy command fails
	// while it judges cases (see policySources.load); nil for a run
	// without policy commands.
	ctx context.Context
}

// context is e.ctx, or a context never done when e has none.
func (e *env) context() context.Context {
	if e.ctx == nil {
		return context.Background()
	}
	return e.ctx
}

// An output is what a command's run gives the runner (runWithPolicies),
// which writes it the same way for every command, once the policy
// commands are stopped: first the report, then, when the run has
// succeeded, the writes; the run then ends with outcome.
type output struct {
	// report writes the report to w (stdout); nil for a command that
	// writes none.
	report func(w io.Writer) error
	// writes are the command's writes to files (a baseline, override
	// files, the GitHub step summary), made in order once the run has
	// succeeded: no policy failed and the report was written. The first
	// error is the command's.
	writes []func() error
	// outcome is how the run ends once its outputs are written: nil, a
	// finding (exit status 1) or an outside failure the report shows
	// (exit status 3).
	outcome error
}

// rendered is the output of a run whose report is rep, which render
// writes in format with opts, and which ends with outcome.
func rendered[R, O any](render func(io.Writer, report.Format, R, O) error, format report.Format, rep R, opts O, outcome error) output {
	return output{report: func(w io.Writer) error { return render(w, format, rep, opts) }, outcome: outcome}
}

// streamed is the runFunc of a command that writes as it goes (eval,
// serve, version): its output is what run wrote.
func streamed(run func(e *env, args []string) error) runFunc {
	return func(e *env, args []string) (output, error) { return output{}, run(e, args) }
}

// A runFunc runs a command with its arguments, once its flags are parsed,
// and returns its output; an error means no output: the command's error,
// with its exit status (see exit.go).
type runFunc func(e *env, args []string) (output, error)

// A command is one prerel command, defined once: its usage line, the help
// of 'prerel NAME -h' (and 'prerel help NAME'), its line in the command
// list of 'prerel help' and of the package documentation, its flags and
// what it runs all come from here. doc.go says how to add one.
type command struct {
	// name is what the command is called by: prerel NAME.
	name string
	// args is the usage line after "prerel NAME", such as
	// "[flags] CONSTRAINT [VERSION...]".
	args string
	// summary says in one line, lower case and without a period, what
	// the command does, for the command lists.
	summary string
	// help is the text of 'prerel NAME -h' after the usage line: what the
	// command does, in lines of at most 80 columns.
	help string
	// policySources gives the command --policy-file, --policy-cmd,
	// --policy-cmd-env and --policy-timeout: the policies they name are
	// registered before the command runs, and the policy commands
	// stopped after it.
	policySources bool
	// flags defines the command's flags on fs and returns the function
	// that runs the command once they are parsed, with the arguments
	// that are not flags. The function may read fs (fs.Changed).
	flags func(fs *flagSet) runFunc
}

// commands are prerel's commands, in the order of the command lists.
var commands []*command

func init() {
	commands = []*command{
		&policiesCommand,
		&checkCommand,
		&evalCommand,
		&selectCommand,
		&explainCommand,
		&compareCommand,
		&mergeCommand,
		&resolveCommand,
		&pinCommand,
		&impactCommand,
		&serveCommand,
		&versionCommand,
	}
}

// defaultMemoryLimit is the soft memory limit prerel runs with when
// GOMEMLIMIT is not set (runtime/debug.SetMemoryLimit): the garbage
// collector then works harder as the heap nears it, so that a long
// compare (a random domain of a million cases, scope 4) stays under about
// 300 MB however many cases it judges. What a run keeps is bounded by
// compare.MaxClasses and compare.MaxSplits; GOMEMLIMIT overrides the
// limit, GOMEMLIMIT=off removes it.
const defaultMemoryLimit = 256 << 20

// limitMemory sets defaultMemoryLimit unless getenv gives GOMEMLIMIT.
func limitMemory(getenv func(string) string) {
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}

func main() {
	limitMemory(os.Getenv)
	// The orphans of policy commands become prerel's children, to be
	// stopped with the commands; where that is not available, the
	// commands' process groups are stopped all the same.
	cmdpolicy.AdoptOrphans()
	e := &env{
		stdin:       os.Stdin,
		stdout:      os.Stdout,
		stderr:      os.Stderr,
		registry:    catalogue.New(),
		getenv:      os.Getenv,
		environ:     os.Environ,
		stderrIsTTY: isTerminal(os.Stderr),
	}
	code := run(e, os.Args[1:])
	writing.Lock()
	cmdpolicy.StopAll()
	os.Exit(code)
}

// run dispatches to a subcommand, reports its error on stderr and maps it
// to the exit status. A failed write to stdout is an outside failure, also
// when the command itself did not notice it. A panic is an internal error:
// it is reported, with the stack, and ends with exitInternal.
func run(e *env, args []string) int {
	if len(args) == 0 {
		printUsage(e.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		return run(e, []string{"help"})
	case "-version", "--version":
		return run(e, []string{"version"})
	case "help":
		if len(args) > 1 {
			// "prerel help check" is "prerel check -h".
			return run(e, []string{args[1], "-h"})
		}
		var help strings.Builder
		printUsage(&help)
		if _, err := io.WriteString(e.stdout, help.String()); err != nil {
			fmt.Fprintf(e.stderr, "prerel: write to standard output: %s\n", printable.Lines(err.Error()))
			return exitFailure
		}
		return exitOK
	}
	i := slices.IndexFunc(commands, func(c *command) bool { return c.name == args[0] })
	if i < 0 {
		fmt.Fprintf(e.stderr, "prerel: unknown command %q\nRun 'prerel --help' for usage.\n", args[0])
		return exitUsage
	}
	return runCommand(e, commands[i], args[1:])
}

// runCommand parses c's flags, runs c with its arguments and reports its
// error. A request for help (-h) writes c's help to stdout.
func runCommand(e *env, c *command, args []string) (code int) {
	defer func() {
		if p := recover(); p != nil {
			stack := debug.Stack()
			if wp, ok := p.(*workerPanic); ok {
				p, stack = wp.value, wp.stack
			} else if bp, ok := p.(*batch.PanicError); ok {
				p, stack = bp.Value, bp.Stack
			}
			fmt.Fprintf(e.stderr, "prerel %s: %s\n%s", c.name, printable.Lines(internalError(p).Error()), stack)
			code = exitInternal
		}
	}()
	out := &stickyWriter{w: e.stdout}
	ce := *e
	ce.stdout = out
	fs := newFlags(c)
	var sources *policySources
	if c.policySources {
		sources = addPolicySources(fs)
	}
	run := c.flags(fs)
	err := parseFlags(fs, args)
	switch {
	case errors.Is(err, errHelp):
		writeHelp(out, c, fs)
	case err == nil:
		err = runWithPolicies(&ce, sources, fs.Args(), run)
	}
	if out.err != nil && exitStatus(err) < exitUsage {
		err = failure(fmt.Errorf("write to standard output: %w", out.err))
	}
	code = exitStatus(err)
	if code != exitOK {
		// A library error may start with the command's own name
		// ("compare: ..."), which the prefix already says.
		msg := strings.TrimPrefix(err.Error(), c.name+": ")
		fmt.Fprintf(e.stderr, "prerel %s: %s\n", c.name, printable.Lines(msg))
		if hint := hintOf(err); hint != "" {
			fmt.Fprintln(e.stderr, hint)
		}
	}
	return code
}

// runWithPolicies registers the policies that sources name, when there
// are any, runs run with args, stops the policy commands and writes the
// run's output. It is the one place that decides, for every command:
//
//   - a policy command that failed while it judged cases is the error,
//     whatever the run returned (it made the run's verdicts wrong), unless
//     the run's error tells it; one that fails when it is stopped is the
//     error unless the run failed; then no report is written and no
//     file;
//   - otherwise a run's error is the error, with no report and no file;
//   - otherwise the report is written; the errors of the policies of
//     policy files and of prerel.hcl whose expressions failed on some
//     cases follow it (those cases are invalid in the report), as bad
//     input, and no file is written;
//   - otherwise the writes are made, in order, and the run ends with the
//     first error among the report's and the writes', or its outcome.
//
// A command that takes policies runs, writes included, under
// cmdpolicy.StopOnSignal.
func runWithPolicies(e *env, sources *policySources, args []string, run runFunc) error {
	if sources != nil {
		defer cmdpolicy.StopOnSignal(e.stderr, "prerel", &writing)()
	}
	out, err := runStopPolicies(e, sources, args, run)
	if err != nil {
		return err
	}
	var reportErr error
	if out.report != nil {
		reportErr = failure(out.report(e.stdout))
	}
	// The cases those policies failed on are invalid in the report.
	if err := hclpolicy.FailuresIn(e.registry); err != nil {
		return usage(err)
	}
	for _, write := range out.writes {
		if err := lockedWrite(write); err != nil {
			return err
		}
	}
	if reportErr != nil {
		return reportErr
	}
	return out.outcome
}

// runStopPolicies loads the policies of sources, runs run and stops the
// policy commands: the error is that of a policy command that failed
// (see runWithPolicies), or else run's.
func runStopPolicies(e *env, sources *policySources, args []string, run runFunc) (output, error) {
	stop := func() error { return nil }
	if sources != nil {
		var err error
		if stop, err = sources.load(e); err != nil {
			return output{}, err
		}
	}
	out, err := run(e, args)
	during := e.ctx != nil && e.ctx.Err() != nil
	if failed := stop(); failed != nil && !errors.Is(err, failed) && (during || exitStatus(err) < exitUsage) {
		return output{}, usage(failed)
	}
	return out, err
}

// workerPanic is a panic recovered in a goroutine a command started, to
// be raised again in the command's own goroutine, where run recovers it:
// the value and the stack of the goroutine that panicked.
type workerPanic struct {
	value any
	stack []byte
}

// internalError is the error of a recovered panic p.
func internalError(p any) error {
	if err, ok := p.(error); ok {
		return fmt.Errorf("internal error: %w", err)
	}
	return fmt.Errorf("internal error: %v", p)
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

// printUsage writes the help of 'prerel --help': the commands, how flags
// are read and the exit statuses.
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "prerel puts prerelease-matching policies for version constraints side by side.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	writeCommandList(w, "  ")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'prerel COMMAND -h' (or 'prerel help COMMAND') for a command's flags,")
	fmt.Fprintln(w, "and 'prerel --version' for prerel's version.")
	fmt.Fprintln(w, flagsNote)
	fmt.Fprintln(w)
	fmt.Fprint(w, exitStatusHelp)
}

// writeCommandList writes the list of commands, each line after indent:
// a command's usage line, then its summary below it. It is the list of
// 'prerel --help' and of the package documentation.
func writeCommandList(w io.Writer, indent string) {
	for _, c := range commands {
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("%sprerel %-8s %s", indent, c.name, c.args), " "))
		fmt.Fprintf(w, "%s         %s\n", indent, c.summary)
	}
}

// policy looks the policy up by name (resolve).
func (e *env) policy(name string) (engine.Policy, error) {
	ps, err := e.resolve(policyList{name})
	if err != nil {
		return nil, err
	}
	return ps[0], nil
}

// resolve looks the policies up by name, all of them when names is empty.
// An unknown name, or a policy named twice, is a usage error.
func (e *env) resolve(names policyList) ([]engine.Policy, error) {
	ps, err := e.registry.Resolve(names)
	var unknown *engine.UnknownPolicyError
	if errors.As(err, &unknown) {
		if best := suggest.Closest(unknown.Name, unknown.Known); best != "" {
			return nil, usagef("unknown policy %q; did you mean %q? ('prerel policies' lists all %d)", unknown.Name, best, len(unknown.Known))
		}
	}
	if err != nil {
		return nil, usage(err)
	}
	if len(ps) == 0 {
		return nil, usagef("no policies are registered")
	}
	seen := make(map[string]bool, len(ps))
	for _, p := range ps {
		if seen[p.Name()] {
			return nil, usagef("policy %q given twice", p.Name())
		}
		seen[p.Name()] = true
	}
	return ps, nil
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// versionCommand is prerel version.
var versionCommand = command{
	name:    "version",
	summary: "prerel's version (also: prerel --version)",
	help: "Print prerel's version: the module version it was built as, or\n" +
		"(devel) for a build from a source tree.",
	flags: func(fs *flagSet) runFunc {
		return func(e *env, args []string) (output, error) {
			if len(args) != 0 {
				return output{}, usagef("version takes no arguments, got %q", args[0])
			}
			info, _ := debug.ReadBuildInfo()
			return output{report: func(w io.Writer) error {
				_, err := fmt.Fprintf(w, "prerel %s\n", moduleVersion(info))
				return err
			}}, nil
		}
	},
}

// moduleVersion is the version of the main module in info: the tag or
// pseudo-version go install records, or "(devel)" when it is not known.
func moduleVersion(info *debug.BuildInfo) string {
	if info == nil || info.Main.Version == "" {
		return "(devel)"
	}
	return info.Main.Version
}
