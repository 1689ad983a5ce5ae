package cmdpolicy

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/bounded"
	"github.com/prerel/prerel/internal/longtest"
)

// needPython skips the test when python3 is missing: the rules of these
// tests are Python scripts.
func needPython(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the command policies under test are Python scripts")
	}
}

// script is the path of a script of testdata/policycmd.
func script(name string) string {
	return filepath.Join("..", "testdata", "policycmd", name)
}

// python is the command line that runs a script: "python3 -S", as the
// scripts import the standard library alone. Without site's import of
// the installed packages the interpreter starts in about two thirds of
// the CPU, and these tests start some twenty of them.
func python(path string) []string {
	return []string{"python3", "-S", path}
}

// noLeaks fails t when, once its cleanups have run, more goroutines are
// left than when it started. Call it first, so that its check runs last.
func noLeaks(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				t.Errorf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// newPolicy is the policy of a Python script, closed when t ends.
func newPolicy(t *testing.T, name string, opt Options) *Policy {
	t.Helper()
	needPython(t)
	p, err := New(strings.TrimSuffix(strings.ReplaceAll(name, "_", "-"), ".py"), python(script(name)), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// pid is the process id of p's command, once started.
func pid(t *testing.T, p *Policy) int {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.proc == nil {
		t.Fatal("the command is not running")
	}
	return p.proc.cmd.Process.Pid
}

// alive reports whether the process runs (a zombie does not).
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err == nil {
		// pid (comm) state ...: the state follows the last ')'.
		i := bytes.LastIndexByte(stat, ')')
		return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
	}
	if _, err := os.Stat("/proc/self"); err == nil {
		return false
	}
	return syscall.Kill(pid, 0) == nil
}

// waitGone fails t when the process is still running after a while.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Errorf("process %d still runs", pid)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// prereleaseNamed is the rule of prerelease_named.py in Go: every
// comparator holds by precedence and a prerelease needs a comparator that
// names one.
type prereleaseNamed struct{}

func (prereleaseNamed) Name() string { return "native-named" }
func (prereleaseNamed) Rule() string { return "a prerelease only when the constraint names one" }
func (n prereleaseNamed) Compile(c string) (engine.Matcher, error) {
	return engine.CompileNative(n, c)
}
func (prereleaseNamed) Judge(c *engine.Constraint, v *engine.Version) engine.Result {
	if c.FirstFailure(v) >= 0 {
		return engine.Rejected("fails a comparator")
	}
	if v.IsPrerelease() && !c.NamesPrerelease() {
		return engine.Rejected("a prerelease, and no comparator names one")
	}
	return engine.Allowed("every comparator holds")
}

func TestScriptEqualsNativeRuleOnExhaustiveDomain(t *testing.T) {
	longtest.Skip(t) // a script on a whole exhaustive domain
	noLeaks(t)
	p := newPolicy(t, "prerelease_named.py", Options{})
	d, err := compare.Exhaustive(compare.MinScope)
	if err != nil {
		t.Fatal(err)
	}
	bounded.Run(t, func() {
		r, err := compare.Run(context.Background(), d, []engine.Policy{prereleaseNamed{}, p}, compare.Options{Workers: 4})
		if err != nil {
			t.Error(err)
			return
		}
		if r.Pairs[0].Diverge != 0 || r.Pairs[0].Agree != d.Info().Cases {
			t.Errorf("%+v", r.Pairs[0])
			for _, c := range r.Classes {
				t.Errorf("%s: %d, e.g. %+v", c.Signature, c.Count, c.Witness)
			}
		}
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
}

func TestConcurrentBatchesKeepAnswersInOrder(t *testing.T) {
	noLeaks(t)
	p := newPolicy(t, "prerelease_named.py", Options{})
	constraints := []string{">= 1.0.0", ">= 1.0.0-beta", "~> 1.0", "~> 1.0.0-beta, != 1.0.1", "bad", "< 2.0.0"}
	var versions []string
	for _, base := range []string{"0.9.0", "1.0.0", "1.0.1", "1.5.0", "2.0.0"} {
		for _, tag := range []string{"", "-alpha", "-beta", "-rc.1"} {
			versions = append(versions, base+tag)
		}
	}
	versions = append(versions, "1.0", "v1.0.0")
	bounded.Run(t, func() {
		var wg sync.WaitGroup
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for round := 0; round < 5; round++ {
					c := constraints[(g+round)%len(constraints)]
					m, err := p.Compile(c)
					if err != nil {
						t.Error(err)
						return
					}
					got := make([]engine.Result, len(versions))
					if g%2 == 0 {
						m.(engine.BatchMatcher).MatchAll(versions, got)
					} else {
						for i, v := range versions {
							got[i] = m.Match(v)
						}
					}
					for i, v := range versions {
						if want := engine.Evaluate(prereleaseNamed{}, c, v); got[i].Verdict != want.Verdict {
							t.Errorf("%q %q: %s (%s), want %s", c, v, got[i].Verdict, got[i].Reason, want.Verdict)
						}
					}
				}
			}()
		}
		wg.Wait()
	})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestLargeBatchesAreSplitAndAligned(t *testing.T) {
	noLeaks(t)
	p := newPolicy(t, "echo.py", Options{})
	for _, tc := range []struct {
		name       string
		constraint string
		n          int
	}{
		{"more cases than a batch", ">= 1.0.0", 3*MaxBatch + 7},
		{"more bytes than a pipe holds", strings.Repeat("x", 100<<10), 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			versions := make([]string, tc.n)
			for i := range versions {
				versions[i] = fmt.Sprintf("1.0.%d", i)
			}
			got := make([]engine.Result, len(versions))
			m, err := p.Compile(tc.constraint)
			if err != nil {
				t.Fatal(err)
			}
			bounded.Run(t, func() { m.(engine.BatchMatcher).MatchAll(versions, got) })
			for i, v := range versions {
				if got[i].Verdict != engine.Reject || !strings.HasSuffix(got[i].Reason, `\t`+v) {
					t.Fatalf("case %d: %s %q", i, got[i].Verdict, got[i].Reason)
				}
			}
		})
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestAnswerReasonsAsWritten(t *testing.T) {
	noLeaks(t)
	p := newPolicy(t, "echo.py", Options{})
	bounded.Run(t, func() {
		for _, tc := range []struct{ constraint, version, reason string }{
			// echo.py ends its lines with CR LF: one CR is dropped, and
			// the tab between constraint and version stays in the reason.
			{">= 1.0", "1.0.0", `>= 1.0\t1.0.0`},
			{" = 1.0 ", " 1.0.0 ", ` = 1.0 \t 1.0.0 `},
			{"", "", `\t`},
			// Control characters, tabs included, are escaped; UTF-8 is
			// kept.
			{"≥ 1", "1.0.0\x1b[2J", `≥ 1\t1.0.0\x1b[2J`},
		} {
			r := engine.Evaluate(p, tc.constraint, tc.version)
			if r.Verdict != engine.Reject || r.Reason != tc.reason {
				t.Errorf("%q %q: %s %q, want reject %q", tc.constraint, tc.version, r.Verdict, r.Reason, tc.reason)
			}
		}
		long := strings.Repeat("9", 5000)
		if r := engine.Evaluate(p, long, "1.0.0"); len(r.Reason) > engine.MaxReason+len("…") || !strings.HasSuffix(r.Reason, `\t1.0.0`) {
			t.Errorf("a long reason is not clipped: %d bytes", len(r.Reason))
		}
	})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestParseAnswer(t *testing.T) {
	for _, tc := range []struct {
		line    string
		verdict engine.Verdict
		reason  string
		garbage bool
	}{
		{"allow", engine.Allow, noReason, false},
		{"reject\tfails >= 2", engine.Reject, "fails >= 2", false},
		{"invalid\tnot a version\tat all", engine.Invalid, `not a version\tat all`, false},
		{"allow\t", engine.Allow, noReason, false},
		{"allow\t\xff", engine.Allow, "\uFFFD", false},
		{"Allow", 0, "", true},
		{"allow because", 0, "", true},
		{" allow", 0, "", true},
		{"", 0, "", true},
		{"yes", 0, "", true},
	} {
		a := parseAnswer([]byte(tc.line))
		if a.garbage != tc.garbage || !tc.garbage && (a.result.Verdict != tc.verdict || a.result.Reason != tc.reason) {
			t.Errorf("%q: %+v", tc.line, a)
		}
	}
}

func TestUnsendableCasesAreInvalidWithoutAsking(t *testing.T) {
	noLeaks(t)
	p := newPolicy(t, "prerelease_named.py", Options{})
	bounded.Run(t, func() {
		for _, tc := range []struct{ constraint, version, reason string }{
			{">= 1.0", "1.0.0\t2", "the version contains a tab"},
			{">= 1.0", "1.0.0\n", "the version contains a line feed"},
			{">= 1.0", "1.0.0\r", "the version contains a carriage return"},
			{">= 1.0", "1.0\r.0", "the version contains a carriage return"},
			{">= 1.0", "1.0.0\xff", "the version is not valid UTF-8"},
			{">= 1.0\t", "1.0.0", "the constraint contains a tab"},
			{">=\n1.0", "1.0.0", "the constraint contains a line feed"},
			{">= 1.0\r", "1.0.0", "the constraint contains a carriage return"},
			{"\xc3", "1.0.0", "the constraint is not valid UTF-8"},
			{">= 1.0", strings.Repeat("1", MaxLine), "the case is 1048583 bytes long"},
			{strings.Repeat("1", MaxLine), "1.0.0", "the constraint is 1048576 bytes long"},
		} {
			r := engine.Evaluate(p, tc.constraint, tc.version)
			if r.Verdict != engine.Invalid || !strings.HasPrefix(r.Reason, tc.reason) || !strings.Contains(r.Reason, "cannot be sent to the command") {
				t.Errorf("%q %q: %s %q", tc.constraint, tc.version, r.Verdict, r.Reason)
			}
		}
		p.mu.Lock()
		started := p.proc != nil
		p.mu.Unlock()
		if started {
			t.Error("the command was started for cases that cannot be sent")
		}
		if r := engine.Evaluate(p, ">= 1.0.0-beta", "1.0.0-rc.1"); r.Verdict != engine.Allow {
			t.Errorf("after unsendable cases: %+v", r)
		}
		if p.answered != 1 {
			t.Errorf("%d cases asked, want 1", p.answered)
		}
	})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestPolicyWorksInEngineCalls(t *testing.T) {
	noLeaks(t)
	p := newPolicy(t, "prerelease_named.py", Options{Rule: "a prerelease only when named"})
	if p.Name() != "prerelease-named" || p.Rule() != "a prerelease only when named" {
		t.Errorf("%q %q", p.Name(), p.Rule())
	}
	bounded.Run(t, func() {
		sel, err := engine.Select(p, ">= 1.0.0", []string{"1.0.0", "1.1.0-beta", "1.0.1", "nonsense"})
		if err != nil || sel.Version != "1.0.1" || len(sel.Unreadable) != 1 {
			t.Errorf("Select: %+v, %v", sel, err)
		}
		x := engine.Explain(p, ">= 1.0.0-beta", "1.0.0-rc.1")
		if x.Result.Verdict != engine.Allow || len(x.Steps) == 0 {
			t.Errorf("Explain: %+v", x)
		}
		if r := engine.Evaluate(p, ">= 1.0.0", "x"); r.Verdict != engine.Invalid || r.Reason != "not a version: 'x'" {
			t.Errorf("Evaluate: %+v", r)
		}
	})
	reg := engine.NewRegistry()
	if err := reg.Register(p); err != nil {
		t.Error(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if r := engine.Evaluate(p, ">= 1.0.0", "1.0.0"); r.Verdict != engine.Invalid || r.Reason != ErrClosed.Error() {
		t.Errorf("after Close: %+v", r)
	}
	if err := p.Err(); err != nil {
		t.Errorf("Err after a clean Close: %v", err)
	}
}

func TestDirAndStderr(t *testing.T) {
	noLeaks(t)
	needPython(t)
	var stderr lockedBuffer
	p, err := New("named", python("prerelease_named.py"), Options{Dir: script(""), Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	bounded.Run(t, func() {
		if r := engine.Evaluate(p, "~> 1.0", "1.9.0"); r.Verdict != engine.Allow {
			t.Errorf("%+v", r)
		}
	})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}

	q, err := New("fails", python(script("exit_at_once.py")), Options{Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	bounded.Run(t, func() { engine.Evaluate(q, "1.0", "1.0.0") })
	q.Close()
	if got := stderr.String(); got != "exit_at_once: no rule here\n" {
		t.Errorf("stderr: %q", got)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestCloseBeforeAnyCase(t *testing.T) {
	noLeaks(t)
	p := newPolicy(t, "prerelease_named.py", Options{})
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if r := engine.Evaluate(p, "1.0", "1.0.0"); r.Verdict != engine.Invalid || r.Reason != ErrClosed.Error() {
		t.Errorf("%+v", r)
	}
}

func TestNewRefuses(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "rule.py")
	if err := os.WriteFile(plain, []byte("print('allow')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		argv []string
		opt  Options
		want string
	}{
		{"Bad_Name", []string{"true"}, Options{}, `policy name "Bad_Name": only lower case letters, digits and '-' are allowed`},
		{"", []string{"true"}, Options{}, "empty policy name"},
		{"x", nil, Options{}, `policy "x": no command given`},
		{"x", []string{""}, Options{}, `policy "x": no command given`},
		{"x", []string{"prerel-no-such-program"}, Options{}, `policy "x": command prerel-no-such-program: program not found: exec: "prerel-no-such-program": executable file not found in $PATH`},
		{"x", []string{"./no-such-rule.py"}, Options{}, `policy "x": command ./no-such-rule.py: cannot run the program: exec: "./no-such-rule.py": stat ./no-such-rule.py: no such file or directory`},
		{"x", []string{plain}, Options{}, "cannot run the program: exec: \"" + plain + "\": permission denied"},
		{"x", []string{"./rule.py"}, Options{Dir: dir}, "cannot run the program: exec: \"" + dir + "/./rule.py\": permission denied"},
		{"x", []string{"true"}, Options{Dir: filepath.Join(dir, "none")}, `policy "x": working directory: stat ` + dir + "/none: no such file or directory"},
		{"x", []string{"true"}, Options{Dir: plain}, "is not a directory"},
		{"x", []string{"true"}, Options{Timeout: -time.Second}, `policy "x": negative timeout -1s`},
	} {
		_, err := New(tc.name, tc.argv, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q, %q): %v, want %q", tc.name, tc.argv, err, tc.want)
		}
	}
}

func TestCommandLine(t *testing.T) {
	got := commandLine([]string{"python3", "-c", "print('x')", "a b", "", "ok=1", "tab\there"})
	want := `python3 -c "print('x')" 'a b' '' ok=1 "tab\there"`
	if got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

// failing runs a script that breaks the protocol, judges cases with it
// until it fails (at most a few times), and checks the failure: its
// message, that the cases of the failed batch it answered keep their
// answers and every other case of it and after it is Invalid with it
// (NotJudged), that Close and Err return it, and that the process is
// gone.
type failing struct {
	script   string
	opt      Options
	versions []string      // one MatchAll of these against constraint "c"
	before   int           // cases answered properly before the failing batch
	answered int           // cases of the failing batch answered before the failure
	retries  int           // further single cases sent until one fails
	atClose  bool          // the failure shows at Close
	grace    time.Duration // the wait at close, when the test waits for it to run out
	want     []string      // in the message, in this order
}

func (f failing) run(t *testing.T) {
	noLeaks(t)
	p := newPolicy(t, f.script, f.opt)
	var pids []int
	var failed []engine.Result
	bounded.Run(t, func() {
		m, _ := p.Compile("c")
		for i := 0; i < f.before; i++ {
			r := m.Match("ok")
			if r.Verdict == engine.Invalid {
				t.Errorf("case %d before the failure: %+v", i, r)
			}
		}
		if f.before > 0 {
			pids = append(pids, pid(t, p))
		}
		failed = make([]engine.Result, len(f.versions))
		m.(engine.BatchMatcher).MatchAll(f.versions, failed)
		for i := 0; i < f.retries && p.Err() == nil; i++ {
			time.Sleep(20 * time.Millisecond)
			failed = append(failed, m.Match("again"))
		}
	})
	var err error
	if f.atClose {
		if p.Err() != nil {
			t.Fatalf("failed before Close: %v", p.Err())
		}
		err = p.Close()
	} else {
		err = p.Err()
	}
	if err == nil {
		t.Fatal("no failure")
	}
	msg := err.Error()
	t.Log(msg)
	rest := msg
	for _, w := range f.want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("%s\ndoes not have %q (in this place)", msg, w)
		}
		rest = rest[i+len(w):]
	}
	var e *Error
	if !errors.As(err, &e) || e.Policy != p.Name() {
		t.Errorf("%T %+v", err, err)
	}
	if !f.atClose {
		reason := engine.InvalidResult(err).Reason
		if f.retries > 0 {
			failed = failed[len(failed)-1:]
		}
		for i, r := range failed {
			if i < f.answered {
				if r.Verdict != engine.Allow || p.NotJudged(r) {
					t.Errorf("case %d, answered before the failure: %+v", i, r)
				}
				continue
			}
			if r.Verdict != engine.Invalid || r.Reason != reason || !p.NotJudged(r) {
				t.Errorf("case %d of the failure: %+v", i, r)
			}
		}
		if r := engine.Evaluate(p, ">= 1.0", "1.0.0"); r.Verdict != engine.Invalid || r.Reason != reason || !p.NotJudged(r) {
			t.Errorf("after the failure: %+v", r)
		}
	}
	if got := p.Close(); got != err {
		t.Errorf("Close: %v", got)
	}
	if got := p.Err(); got != err {
		t.Errorf("Err: %v", got)
	}
	for _, m := range regexp.MustCompile(`(?:pid|child) (\d+)`).FindAllStringSubmatch(msg, -1) {
		n, _ := strconv.Atoi(m[1])
		pids = append(pids, n)
	}
	for _, n := range pids {
		waitGone(t, n)
	}
}

func TestCommandFailures(t *testing.T) {
	five := []string{"v1", "v2", "v3", "v4", "v5"}
	// The hang is found by the timeout alone, so the timeout is far
	// above what starting the interpreter takes on a loaded machine: the
	// script must have written its process ids before it runs out.
	hangs := Options{Timeout: 5 * time.Second}
	for name, f := range map[string]failing{
		"exits at once": {script: "exit_at_once.py", versions: five,
			want: []string{`policy "exit-at-once": command python3 -S ../testdata/policycmd/exit_at_once.py: exited with status 3 after answering 0 of 5 cases of a batch, with no answer for constraint "c", version "v1" (case 1 of a batch of 5)`,
				`; its standard error ended with "exit_at_once: no rule here"`}},
		"exits mid-batch": {script: "exit_mid_batch.py", versions: five, answered: 2,
			want: []string{`exited with status 4 after answering 2 of 5 cases of a batch, with no answer for constraint "c", version "v3" (case 3 of a batch of 5)`}},
		"writes to stderr and fails": {script: "stderr_fail.py", versions: five, before: 1,
			want: []string{`exited with status 1 after answering 0 of 5 cases of a batch, with no answer for constraint "c", version "v1"`,
				`its standard error ended with "Traceback (most recent call last):`, `ValueError: stderr_fail: cannot judge c\tv1"`}},
		"closes its output": {script: "too_few.py", versions: five, answered: 2,
			want: []string{`closed its standard output after answering 2 of 5 cases of a batch, with no answer for constraint "c", version "v3"`}},
		"exits between batches": {script: "one_then_exit.py", versions: []string{"v1"}, before: 1,
			want: []string{`exited with status 0`, `after answering`}},
		"answers too many": {script: "too_many.py", versions: []string{"v1"}, retries: 500,
			want: []string{`wrote more lines than it was asked for: "allow\ttwice" after answering 1 case (one line per case)`}},
		"answers too many, found by Close": {script: "too_many.py", versions: five, atClose: true,
			want: []string{`wrote more lines than it was asked for: "allow\ttwice" after answering 5 cases (one line per case)`}},
		"writes garbage": {script: "garbage.py", versions: five,
			want: []string{`answered "maybe\tnot sure" for constraint "c", version "v1" (case 1 of a batch of 5): an answer is allow, reject or invalid, optionally followed by a tab and a reason`}},
		"writes a huge line": {script: "huge_line.py", versions: five,
			want: []string{`wrote an answer longer than 1048576 bytes for constraint "c", version "v1" (case 1 of a batch of 5)`}},
		"hangs": {script: "hang.py", opt: hangs, versions: []string{"v1", "v2"},
			want: []string{`gave no answer within 5s for constraint "c", version "v1" (case 1 of a batch of 2); it was stopped`, `hang: pid `}},
		// Only the wait at close is short: the answers may take as long as
		// a loaded machine needs to start the interpreter. The command
		// never exits, so the wait runs out whatever the machine's speed.
		"hangs after answering": {script: "no_exit.py", opt: Options{Timeout: 30 * time.Second}, versions: five, atClose: true, grace: 300 * time.Millisecond,
			want: []string{`did not exit within 300ms after its input was closed; it was stopped`}},
		// The command exits once it has started its child, which a loaded
		// machine may take a while to do; the child never closes the
		// output. The wait is far above the first and runs out on the
		// second.
		"leaves a process holding its output": {script: "leave_child.py", versions: five, atClose: true, grace: 2 * time.Second,
			want: []string{`exited, but its standard output stayed open for 2s after its input was closed, held by a process it started; it was stopped`, `leave_child: child `}},
		"fails at the end": {script: "bad_status.py", versions: five, atClose: true,
			want: []string{`exited with status 5 after its input was closed; its standard error ended with "bad_status: failing at the end"`}},
	} {
		t.Run(name, func(t *testing.T) {
			defer func(g time.Duration) { closeGrace = g }(closeGrace)
			// The wait at close is short only where the test waits for it
			// to run out; elsewhere it is far above what a loaded machine
			// takes to see a command exit.
			closeGrace = cmp.Or(f.grace, 30*time.Second)
			f.run(t)
		})
	}
}

func TestCommandThatCannotStart(t *testing.T) {
	noLeaks(t)
	dir := t.TempDir()
	prog := filepath.Join(dir, "rule")
	if err := os.WriteFile(prog, []byte("\x7fELF not really\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := New("broken", []string{prog}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var r engine.Result
	bounded.Run(t, func() { r = engine.Evaluate(p, "1.0", "1.0.0") })
	err = p.Err()
	if err == nil || !strings.Contains(err.Error(), `policy "broken": command `+prog+`: cannot be started: fork/exec `+prog+": exec format error") {
		t.Fatalf("%v", err)
	}
	if r.Verdict != engine.Invalid || r.Reason != err.Error() {
		t.Errorf("%+v", r)
	}
	if p.Close() != err {
		t.Error("Close does not return the failure")
	}
}

// BenchmarkBatch measures cases judged per second through MatchAll with
// the rule of prerelease_named.py, a full batch at a time.
func BenchmarkBatch(b *testing.B) {
	benchmarkCommand(b, MaxBatch)
}

// BenchmarkOneCase measures cases judged per second through Match: a
// round trip for each case.
func BenchmarkOneCase(b *testing.B) {
	benchmarkCommand(b, 1)
}

func benchmarkCommand(b *testing.B, n int) {
	needPython(b)
	p, err := New("named", []string{"python3", script("prerelease_named.py")}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	m, _ := p.Compile(">= 1.0.0-beta, < 2.0.0")
	versions := make([]string, n)
	for i := range versions {
		versions[i] = fmt.Sprintf("1.%d.%d-rc.%d", i%7, i%13, i%5)
	}
	results := make([]engine.Result, n)
	m.(engine.BatchMatcher).MatchAll(versions, results) // start the command
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		m.(engine.BatchMatcher).MatchAll(versions, results)
	}
	b.ReportMetric(float64(b.N*n)/time.Since(start).Seconds(), "cases/s")
	if err := p.Err(); err != nil {
		b.Fatal(err)
	}
}
