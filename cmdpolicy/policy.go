package cmdpolicy

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/lines"
	"github.com/prerel/prerel/internal/plural"
)

// Limits of the protocol.
const (
	// MaxLine is the longest line either side may write, without its line
	// end: a case (constraint, tab, version) or an answer.
	MaxLine = lines.Max
	// MaxBatch is the most cases prerel writes before it reads their
	// answers.
	MaxBatch = 1024
	// DefaultTimeout is the Timeout of Options that leave it zero.
	DefaultTimeout = 30 * time.Second
	// Grace is how long Close waits for the command to exit once its input
	// is closed, before killing it.
	Grace = 2 * time.Second
)

// maxBatchBytes bounds the text of one batch: a batch ends before the case
// that would take it over, however few cases it holds (at least one).
const maxBatchBytes = 256 << 10

// stderrKept is how much of the end of the command's standard error a
// Policy keeps for its error messages.
const stderrKept = 4 << 10

// Options tunes a Policy. The zero Options is ready to use.
type Options struct {
	// Rule is the rule in one line, for listings; "" means one that names
	// the command.
	Rule string
	// Timeout is the longest wait for the answers of one batch (at most
	// MaxBatch cases); 0 means DefaultTimeout.
	Timeout time.Duration
	// Dir is the command's working directory; "" means prerel's. A
	// relative program path with a slash is found from it.
	Dir string
	// Stderr receives what the command writes to its standard error; nil
	// discards it. The Policy keeps its last few KiB for error messages
	// either way. It is written from another goroutine, and its errors are
	// ignored, so that the command never blocks on its standard error.
	Stderr io.Writer
	// Env names the variables of prerel's environment that the command
	// gets besides those of BaseEnv; see the package documentation.
	Env []string
	// OnFailure, when set, is called once, with the failure, as soon as
	// the command fails while it judges cases (not when Close finds a
	// failure), so that a long run can stop: every case after it is
	// Invalid. It runs in the goroutine that asked for the cases, and
	// must not call the Policy.
	OnFailure func(error)
}

// BaseEnv names the variables of prerel's environment that every command
// gets, when they are set: the program search path, the home and
// temporary directories and the language. Windows adds those its programs
// need to start (SYSTEMROOT among them).
var BaseEnv = baseEnv()

func baseEnv() []string {
	names := []string{"PATH", "HOME", "LANG", "TMPDIR"}
	if runtime.GOOS == "windows" {
		names = append(names, "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "TEMP", "TMP", "USERPROFILE")
	}
	return names
}

// commandEnv is the environment of a command: the variables of environ
// (as os.Environ lists them) that BaseEnv or names name.
func commandEnv(environ, names []string) []string {
	keep := make(map[string]bool, len(BaseEnv)+len(names))
	for _, n := range BaseEnv {
		keep[envKey(n)] = true
	}
	for _, n := range names {
		keep[envKey(n)] = true
	}
	env := []string{}
	for _, kv := range environ {
		if name, _, ok := strings.Cut(kv, "="); ok && name != "" && keep[envKey(name)] {
			env = append(env, kv)
		}
	}
	return env
}

// envKey is how a variable's name is compared: as written, except on
// Windows, whose names ignore case.
func envKey(name string) string {
	if runtime.GOOS == "windows" {
		return strings.ToUpper(name)
	}
	return name
}

// credentialParts are the words whose presence in a variable's name,
// in any case, makes it a credential's (CredentialName).
var credentialParts = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "API_KEY", "APIKEY", "PRIVATE_KEY", "ACCESS_KEY"}

// CredentialName reports whether the variable called name holds, by its
// name, a credential that a command should not get unless asked for
// explicitly: in any case, a name that starts with TF_TOKEN_ (a registry
// token, as Terraform reads them), TF_CLI_CONFIG_FILE or TERRAFORM_CONFIG
// (the file of Terraform's credentials blocks), or one that contains
// TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL, API_KEY, APIKEY,
// PRIVATE_KEY or ACCESS_KEY (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN, DB_PASSWORD, NPM_API_KEY, ...).
func CredentialName(name string) bool {
	upper := strings.ToUpper(name)
	if strings.HasPrefix(upper, "TF_TOKEN_") || upper == "TF_CLI_CONFIG_FILE" || upper == "TERRAFORM_CONFIG" {
		return true
	}
	for _, part := range credentialParts {
		if strings.Contains(upper, part) {
			return true
		}
	}
	return false
}

// CheckEnvName returns an error unless name can name a variable of the
// environment: not empty, with no '=' and no NUL.
func CheckEnvName(name string) error {
	if name == "" || strings.ContainsAny(name, "=\x00") {
		return fmt.Errorf("%q cannot name an environment variable (it must be non-empty, with no '=' and no NUL)", name)
	}
	return nil
}

// Policy is an engine.Policy whose rule is an external command, speaking
// the protocol of the package documentation. Make one with New, and Close
// it after the last case.
type Policy struct {
	name    string
	rule    string
	argv    []string
	path    string // the program, as exec.Cmd.Path
	command string // argv as a person would type it, for messages
	dir     string
	env     []string    // the command's environment
	onFail  func(error) // Options.OnFailure
	timeout time.Duration
	stderr  *stderrSink

	mu       sync.Mutex // one batch at a time; guards what follows
	proc     *process   // nil before the start and once stopped
	closed   bool
	answered int64 // cases answered in all
	buf      []byte

	errMu  sync.Mutex
	err    error         // the first failure
	failed engine.Result // the result of a case not judged: Invalid, with err
}

var (
	_ engine.Policy       = (*Policy)(nil)
	_ engine.BatchMatcher = (*matcher)(nil)
)

// New returns the policy name whose rule is the command argv: argv[0] is
// the program, found in PATH when it has no slash, and the rest are its
// arguments, passed as they are (no shell is involved); it runs in
// Options.Dir, with the variables of prerel's environment that BaseEnv and
// Options.Env name, as they are when New is called. New fails when
// name is not lower case letters, digits and '-', when argv is empty, when
// the program cannot be found or is not executable, when Dir is not a
// directory, when Timeout is negative, and when Options.Env has a name
// that CheckEnvName refuses. It does not start the command:
// the first case to judge does.
func New(name string, argv []string, opt Options) (*Policy, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, fmt.Errorf("policy %q: no command given", name)
	}
	if opt.Timeout < 0 {
		return nil, fmt.Errorf("policy %q: negative timeout %s", name, opt.Timeout)
	}
	if opt.Timeout == 0 {
		opt.Timeout = DefaultTimeout
	}
	for _, n := range opt.Env {
		if err := CheckEnvName(n); err != nil {
			return nil, fmt.Errorf("policy %q: environment: %w", name, err)
		}
	}
	if opt.Dir != "" {
		fi, err := os.Stat(opt.Dir)
		if err != nil {
			return nil, fmt.Errorf("policy %q: working directory: %w", name, err)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("policy %q: working directory %s is not a directory", name, opt.Dir)
		}
	}
	p := &Policy{
		name:    name,
		rule:    opt.Rule,
		argv:    append([]string(nil), argv...),
		command: commandLine(argv),
		dir:     opt.Dir,
		env:     commandEnv(os.Environ(), opt.Env),
		onFail:  opt.OnFailure,
		timeout: opt.Timeout,
		stderr:  &stderrSink{out: opt.Stderr},
	}
	path, err := p.program()
	if err != nil {
		return nil, err
	}
	p.path = path
	if p.rule == "" {
		p.rule = "the verdicts of the command " + p.command
	}
	return p, nil
}

// program finds the program: in PATH for a name with no slash, else as a
// path, from Dir when it is relative.
func (p *Policy) program() (string, error) {
	prog := p.argv[0]
	if !strings.ContainsRune(prog, '/') && !strings.ContainsRune(prog, os.PathSeparator) {
		path, err := exec.LookPath(prog)
		if err != nil {
			return "", fmt.Errorf("policy %q: command %s: program not found: %w", p.name, p.command, err)
		}
		return path, nil
	}
	check := prog
	if p.dir != "" && !isAbs(prog) {
		check = p.dir + string(os.PathSeparator) + prog
	}
	if _, err := exec.LookPath(check); err != nil {
		return "", fmt.Errorf("policy %q: command %s: cannot run the program: %w", p.name, p.command, err)
	}
	return prog, nil
}

func isAbs(path string) bool {
	return strings.HasPrefix(path, "/") || strings.HasPrefix(path, string(os.PathSeparator)) ||
		len(path) > 1 && path[1] == ':'
}

// checkName refuses what the engine's registry would refuse.
func checkName(name string) error {
	if name == "" {
		return errors.New("empty policy name")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Errorf("policy name %q: only lower case letters, digits and '-' are allowed", name)
		}
	}
	return nil
}

// commandLine writes argv as a person would type it in a shell.
func commandLine(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellWord(a)
	}
	return strings.Join(parts, " ")
}

func shellWord(s string) string {
	if s == "" {
		return "''"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r)) {
			if !strings.ContainsRune(s, '\'') && utf8.ValidString(s) && !strings.ContainsAny(s, "\n\r\t") {
				return "'" + s + "'"
			}
			return strconv.Quote(s)
		}
	}
	return s
}

// Name returns the policy's name.
func (p *Policy) Name() string { return p.name }

// Rule returns the rule in one line: Options.Rule, or one naming the
// command.
func (p *Policy) Rule() string { return p.rule }

// Command returns the command line, as a person would type it.
func (p *Policy) Command() string { return p.command }

// Compile returns a Matcher that sends its cases to the command with
// constraint. It starts nothing and asks nothing; it fails only for a
// constraint that cannot be sent (see the package documentation), which
// makes every version Invalid.
func (p *Policy) Compile(constraint string) (engine.Matcher, error) {
	if why := unsendable("constraint", constraint); why != "" {
		return nil, errors.New(why)
	}
	if len(constraint)+1 > MaxLine {
		return nil, fmt.Errorf("the constraint is %d bytes long, which cannot be sent to the command (a line holds at most %d bytes)", len(constraint), MaxLine)
	}
	return &matcher{p: p, constraint: constraint}, nil
}

// Err returns the command's first failure, nil while it has none. After a
// failure, every case is Invalid with it as the reason.
func (p *Policy) Err() error {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	return p.err
}

// fail records err as the failure unless there is one already, and calls
// Options.OnFailure for the first one found while judging.
func (p *Policy) fail(err error) {
	p.errMu.Lock()
	first := p.err == nil
	if first {
		p.err = err
		p.failed = engine.InvalidResult(err)
	}
	p.errMu.Unlock()
	if first && p.onFail != nil && !p.closed {
		p.onFail(err)
	}
}

// notJudged is the result of the cases that err keeps from being
// judged: the same for every case once the command has failed.
func (p *Policy) notJudged(err error) engine.Result {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	if err == p.err {
		return p.failed
	}
	return engine.InvalidResult(err)
}

// NotJudged reports whether r is the result of a case the command did not
// judge because it had failed: Invalid, with the failure, the error Err
// returns, as its reason. The answers the command gave before it failed
// are kept, whatever they are; a program that reports a failed run can
// tell them from the cases that were never judged.
func (p *Policy) NotJudged(r engine.Result) bool {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	return p.err != nil && r == p.failed
}

// ErrClosed is the reason of the cases judged after Close.
var ErrClosed = errors.New("the policy's command was closed")

// Close closes the command's input, which ends the run, waits up to Grace
// for it to exit and then kills its process group. It returns the first
// failure of the command, the same as Err then: one found while running,
// or one found now (more output, an exit status other than 0, no exit
// within Grace). A Policy never started has nothing to stop. Cases judged
// after Close are Invalid with ErrClosed. Close may be called more than
// once.
func (p *Policy) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if pr := p.proc; pr != nil {
		p.proc = nil
		if err := p.finish(pr); err != nil {
			p.fail(err)
		}
	}
	return p.Err()
}

// matcher is the Matcher of one constraint.
type matcher struct {
	p          *Policy
	constraint string
}

// Match judges one version: a batch of one case.
func (m *matcher) Match(version string) engine.Result {
	var r [1]engine.Result
	m.p.judge(m.constraint, []string{version}, r[:])
	return r[0]
}

// MatchAll judges every version against the constraint, in batches of at
// most MaxBatch cases, into results, which must be as long as versions.
func (m *matcher) MatchAll(versions []string, results []engine.Result) {
	m.p.judge(m.constraint, versions, results[:len(versions)])
}

// unsendable is why text cannot be sent as the constraint or the version
// (what), or "" when it can.
func unsendable(what, text string) string {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\t':
			return "the " + what + " contains a tab, which cannot be sent to the command (a tab separates the constraint from the version)"
		case '\n':
			return "the " + what + " contains a line feed, which cannot be sent to the command (a line feed ends a case)"
		case '\r':
			return "the " + what + " contains a carriage return, which cannot be sent to the command (line readers take it for a line end)"
		}
	}
	if !utf8.ValidString(text) {
		return "the " + what + " is not valid UTF-8, which cannot be sent to the command (the protocol is UTF-8 text)"
	}
	return ""
}

// judge fills results[i] with the verdict on (constraint, versions[i]).
// A version that cannot be sent is Invalid at once; the others go to the
// command in batches. When the command fails, every case of the failed
// batch and of the batches after it is Invalid with the failure.
func (p *Policy) judge(constraint string, versions []string, results []engine.Result) {
	ask := make([]int, 0, len(versions)) // indexes of the versions to send
	for i, v := range versions {
		if why := unsendable("version", v); why != "" {
			results[i] = engine.Result{Verdict: engine.Invalid, Reason: why}
			continue
		}
		if n := len(constraint) + 1 + len(v); n > MaxLine {
			results[i] = engine.Result{Verdict: engine.Invalid, Reason: fmt.Sprintf(
				"the case is %d bytes long, which cannot be sent to the command (a line holds at most %d bytes)", n, MaxLine)}
			continue
		}
		ask = append(ask, i)
	}
	if len(ask) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(ask) > 0 {
		n, size := 0, 0
		for n < len(ask) && n < MaxBatch {
			line := len(constraint) + len(versions[ask[n]]) + 2
			if n > 0 && size+line > maxBatchBytes {
				break
			}
			size += line
			n++
		}
		answered := 0
		err := p.ready()
		if err == nil {
			answered, err = p.batch(constraint, versions, ask[:n], results)
		}
		if err != nil {
			r := p.notJudged(err)
			for _, i := range ask[answered:] {
				results[i] = r
			}
			return
		}
		ask = ask[n:]
	}
}

// ready returns the failure that stops every case, if any; otherwise it
// makes sure the command runs, starting it the first time, and that it
// has written nothing since the last batch. p.mu is held.
func (p *Policy) ready() error {
	if err := p.Err(); err != nil {
		return err
	}
	if p.closed {
		return ErrClosed
	}
	if p.proc == nil {
		pr, err := p.start()
		if err != nil {
			p.fail(err)
			return err
		}
		p.proc = pr
		return nil
	}
	if err := p.idle(p.proc); err != nil {
		p.stop()
		p.fail(err)
		return err
	}
	return nil
}

// stop kills the command and forgets it. p.mu is held.
func (p *Policy) stop() {
	if p.proc != nil {
		p.proc.kill()
		p.proc = nil
	}
}

// batch sends the cases versions[i], i in ask, and reads their answers
// into results. Any failure stops the command and is returned (and
// recorded), with how many of the first cases of ask were answered
// before it. p.mu is held.
func (p *Policy) batch(constraint string, versions []string, ask []int, results []engine.Result) (answered int, err error) {
	pr := p.proc
	buf := p.buf[:0]
	for _, i := range ask {
		buf = append(buf, constraint...)
		buf = append(buf, '\t')
		buf = append(buf, versions[i]...)
		buf = append(buf, '\n')
	}
	p.buf = buf
	pr.write(buf)
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	answered, err = p.answers(pr, constraint, versions, ask, results, timer.C)
	if err == nil {
		// Every case is answered, so the command has read them all; the
		// writer is done or about to be.
		select {
		case <-pr.written:
			pr.writing = false
		case <-timer.C:
			// Answers to cases it has not read are not answers.
			answered = 0
			err = p.newError(fmt.Sprintf("answered every case of a batch of %d but did not read them all within %s", len(ask), p.timeout), nil)
		}
	}
	if err != nil {
		p.stop()
		p.fail(err)
		return answered, err
	}
	p.answered += int64(len(ask))
	return len(ask), nil
}

// answers reads one answer per case of ask into results. On a failure,
// it returns how many of the first cases were answered.
func (p *Policy) answers(pr *process, constraint string, versions []string, ask []int, results []engine.Result, timeout <-chan time.Time) (int, error) {
	exited := pr.waitDone
	var drain <-chan time.Time
	for k, i := range ask {
		at := func() string {
			return fmt.Sprintf("for constraint %s, version %s (case %d of a batch of %d)",
				quote(constraint), quote(versions[i]), k+1, len(ask))
		}
		for answered := false; !answered; {
			select {
			case a, ok := <-pr.answers:
				switch {
				case !ok || a.err == errEOF:
					return k, p.cutOff(pr, k, len(ask), at())
				case a.err == errTooLong:
					return k, p.newError(fmt.Sprintf("wrote an answer longer than %d bytes %s", MaxLine, at()), nil)
				case a.err != nil:
					return k, p.newError("reading its answer "+at(), a.err)
				case a.garbage:
					return k, p.newError(fmt.Sprintf("answered %s %s: an answer is allow, reject or invalid, optionally followed by a tab and a reason",
						quote(a.line), at()), nil)
				}
				results[i] = a.result
				answered = true
			case <-exited:
				// Answers written before the exit may still be on their
				// way: read on until the end of the output, for a moment.
				exited = nil
				t := time.NewTimer(exitDrain)
				defer t.Stop()
				drain = t.C
			case <-drain:
				return k, p.cutOff(pr, k, len(ask), at())
			case <-timeout:
				return k, p.newError(fmt.Sprintf("gave no answer within %s %s; it was stopped", p.timeout, at()), nil)
			}
		}
	}
	return len(ask), nil
}

// exitDrain is how long answers are still read once the command has
// exited, and how long its exit is waited for once its output has ended.
const exitDrain = time.Second

// cutOff is the error for a command whose answers ended after k of n
// cases of a batch.
func (p *Policy) cutOff(pr *process, k, n int, at string) error {
	answered := fmt.Sprintf("after answering %d of %s of a batch, with no answer %s", k, plural.Of(n, "case", "cases"), at)
	select {
	case <-pr.waitDone:
	case <-time.After(exitDrain):
		return p.newError("closed its standard output "+answered, nil)
	}
	pr.settle()
	return p.newError(exitText(pr)+" "+answered, nil)
}

// idle checks, between batches, that the command still runs and has
// written nothing no case asked for.
func (p *Policy) idle(pr *process) error {
	select {
	case a, ok := <-pr.answers:
		switch {
		case !ok || a.err == errEOF:
			select {
			case <-pr.waitDone:
				pr.settle()
				return p.newError(fmt.Sprintf("%s before its input was closed, after answering %s", exitText(pr), plural.Of(p.answered, "case", "cases")), nil)
			case <-time.After(exitDrain):
				return p.newError(fmt.Sprintf("closed its standard output before its input was closed, after answering %s", plural.Of(p.answered, "case", "cases")), nil)
			}
		case a.err == errTooLong:
			return p.newError(fmt.Sprintf("wrote more than it was asked for, after answering %s: a line longer than %d bytes", plural.Of(p.answered, "case", "cases"), MaxLine), nil)
		case a.err != nil:
			return p.newError("reading its output between batches", a.err)
		}
		return p.newError(fmt.Sprintf("wrote more lines than it was asked for: %s after answering %s (one line per case)", quote(a.text()), plural.Of(p.answered, "case", "cases")), nil)
	default:
	}
	select {
	case <-pr.waitDone:
		pr.settle()
		return p.newError(fmt.Sprintf("%s before its input was closed, after answering %s", exitText(pr), plural.Of(p.answered, "case", "cases")), nil)
	default:
	}
	return nil
}

// finish closes the command's input and waits up to Grace for the end of
// its output and its exit, then kills what is left of its process group.
// p.mu is held.
func (p *Policy) finish(pr *process) error {
	pr.closeInput()
	grace := time.NewTimer(closeGrace)
	defer grace.Stop()
	answers, exited := pr.answers, pr.waitDone
	var extra string
	late, gone := false, false
	for answers != nil || exited != nil {
		select {
		case a, ok := <-answers:
			switch {
			case !ok:
				answers = nil
			case extra != "" || a.err == errEOF:
			case a.err == errTooLong:
				extra = fmt.Sprintf("a line longer than %d bytes", MaxLine)
			case a.err != nil:
			default:
				extra = quote(a.text())
			}
		case <-exited:
			exited, gone = nil, true
		case <-grace.C:
			late = true
			answers, exited = nil, nil
		}
	}
	if gone {
		pr.settle()
	}
	pr.kill()
	switch {
	case extra != "":
		return p.newError(fmt.Sprintf("wrote more lines than it was asked for: %s after answering %s (one line per case)", extra, plural.Of(p.answered, "case", "cases")), nil)
	case late && gone:
		return p.newError(fmt.Sprintf("exited, but its standard output stayed open for %s after its input was closed, held by a process it started; it was stopped", closeGrace), nil)
	case late:
		return p.newError(fmt.Sprintf("did not exit within %s after its input was closed; it was stopped", closeGrace), nil)
	case pr.state != nil && !pr.state.Success():
		return p.newError(exitText(pr)+" after its input was closed", nil)
	}
	return nil
}

// closeGrace is Grace; tests shorten it.
var closeGrace = Grace

// exitText says how the command ended; its wait is over.
func exitText(pr *process) string {
	st := pr.state
	switch {
	case st == nil:
		if pr.waitErr != nil {
			return "ended (" + pr.waitErr.Error() + ")"
		}
		return "ended"
	case st.ExitCode() >= 0:
		return fmt.Sprintf("exited with status %d", st.ExitCode())
	}
	return "was ended by " + st.String()
}

// quote quotes text from outside for a message, clipped.
func quote(s string) string { return strconv.Quote(elide.Head(s, 200)) }

// newError is a failure of the command, with the end of its standard
// error.
func (p *Policy) newError(problem string, err error) *Error {
	return &Error{Policy: p.name, Command: p.command, Problem: problem, Stderr: p.stderr.tail(), Err: err}
}

// Error is a failure of a policy's command: what Err returns, and the
// reason of every case judged after it.
type Error struct {
	// Policy is the policy's name, Command its command line.
	Policy, Command string
	// Problem says what went wrong, and on which case.
	Problem string
	// Stderr is the end of what the command wrote to its standard error,
	// at most a few KiB.
	Stderr string
	// Err is the underlying error, when there is one (a failure to start).
	Err error
}

// Error returns the policy, the command, the problem, the underlying
// error and the end of the standard error, quoted, in one line.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "policy %q: command %s: %s", e.Policy, e.Command, e.Problem)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Stderr != "" {
		fmt.Fprintf(&b, "; its standard error ended with %q", e.Stderr)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
