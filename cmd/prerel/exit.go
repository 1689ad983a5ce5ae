package main

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// The exit statuses; doc.go and exitStatusHelp say what each means.
const (
	exitOK       = 0
	exitFinding  = 1
	exitUsage    = 2
	exitFailure  = 3
	exitInternal = 4
)

// exitStatusHelp is the exit status table of 'prerel --help', word for
// word the one of the package documentation.
const exitStatusHelp = `Exit status:

	0  success
	1  a finding: the run differs from the baseline (compare --baseline,
	   merge --baseline), or a module or provider has no admissible
	   version (resolve, pin), or the override files on disk are not
	   what pin would write (pin --check), or a call falls in a class
	   --fail-on names (impact)
	2  bad usage or bad input: a flag, an argument, a constraint or version
	   the engine cannot parse, a file that does not exist or is malformed,
	   a configuration error, a policy in HCL or a policy command that
	   failed on a case
	3  an outside failure: a registry that cannot be reached or answers an
	   error, a file that cannot be read or written (permission, I/O), a
	   failed write to standard output
	4  an internal error: a bug in prerel, reported on stderr as
	   "internal error" with a stack trace (a fatal error of the Go
	   runtime, such as running out of memory, exits 2 instead)
	130  stopped by SIGINT (143: by SIGTERM) in a command that takes
	     policies: its policy commands are stopped, and no file is written
`

// exitError is an error with the exit status prerel ends with. Commands
// return one; run maps it to the status and prints the hint, if any, on a
// line of its own after the error.
type exitError struct {
	code int
	err  error
	hint string
}

func (e *exitError) Error() string { return e.err.Error() }

func (e *exitError) Unwrap() error { return e.err }

// usage marks err as bad usage or bad input: exit status 2. Like finding
// and failure, it returns nil for a nil err, so that a call's error can be
// passed through as it is.
func usage(err error) error { return withStatus(exitUsage, err) }

// usagef is usage with a formatted message.
func usagef(format string, args ...any) error { return usage(fmt.Errorf(format, args...)) }

// finding marks err as a finding, such as a baseline drift: exit status 1.
func finding(err error) error { return withStatus(exitFinding, err) }

// failure marks err as a failure outside prerel and its input, such as an
// unreachable registry or a failed write: exit status 3.
func failure(err error) error { return withStatus(exitFailure, err) }

// withHint gives err, a usage error, a hint that run prints after it.
func withHint(err error, hint string) error {
	var ee *exitError
	if !errors.As(err, &ee) {
		ee = &exitError{code: exitUsage, err: err}
	}
	return &exitError{code: ee.code, err: ee.err, hint: hint}
}

// hintOf is the hint err carries, if any.
func hintOf(err error) string {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.hint
	}
	return ""
}

func withStatus(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// inputError marks an error from reading a file the user named. A file
// that does not exist, is a directory or whose content is wrong is bad
// input; any other failure to open or read it (permission, I/O) is an
// outside failure.
func inputError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && !errors.Is(err, fs.ErrNotExist) &&
		!errors.Is(err, syscall.EISDIR) && !errors.Is(err, syscall.ENOTDIR) {
		return failure(err)
	}
	return usage(err)
}

// exitStatus maps a command's error to the exit status. A request for help
// is success; an error that carries no status is an outside failure.
func exitStatus(err error) int {
	var ee *exitError
	switch {
	case err == nil, errors.Is(err, errHelp):
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	}
	return exitFailure
}

// reportOutcome is the exit status of a report once it is written, text
// naming every problem it found, for stderr (resolve.Report.Outcome,
// impact.Report.Outcome): an outside failure when some versions could
// not be listed, whatever else it found, a finding when text names one.
func reportOutcome(text string, unlisted bool) error {
	switch {
	case unlisted:
		return failure(errors.New(text))
	case text != "":
		return finding(errors.New(text))
	}
	return nil
}
