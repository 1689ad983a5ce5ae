package cmdpolicy

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/lines"
	"github.com/prerel/prerel/internal/printable"
)

// process is a running command: the three pipes prerel holds, and the
// goroutines that read its output and its standard error and wait for its
// exit.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // prerel's end: the cases go here
	stdout *os.File // prerel's end: the answers come from here
	stderr *os.File // prerel's end: copied to the Policy's stderrSink

	// stderrDone is closed when the standard error has been copied to its
	// end.
	stderrDone chan struct{}

	// answers carries every line of the output, parsed, then one last
	// answer with an error (errEOF at the end), and is closed when the
	// reader stops.
	answers chan answer
	quit    chan struct{} // closed to stop the reader
	// waitDone is closed when the command has exited and state and
	// waitErr are set.
	waitDone chan struct{}
	state    *os.ProcessState
	waitErr  error

	written chan error // the writer's result for the batch being written
	writing bool       // a batch is being written

	inputOnce sync.Once
	killOnce  sync.Once
}

// answer is one line of the command's output, or how the output ended.
type answer struct {
	result  engine.Result
	garbage bool   // the line is not an answer; line holds it
	line    string // the line, for a garbage line
	err     error  // errEOF, errTooLong, or a read error; nothing else is set
}

// text is the line, as a message shows it.
func (a *answer) text() string {
	if a.garbage {
		return a.line
	}
	if a.result.Reason == noReason {
		return a.result.Verdict.String()
	}
	return a.result.Verdict.String() + "\t" + a.result.Reason
}

var (
	errEOF     = errors.New("end of output")
	errTooLong = errors.New("line too long")
)

// noReason is the reason of an answer that gives none.
const noReason = "(the command gave no reason)"

// start starts the command with fresh pipes. Its standard streams are
// all pipes prerel makes, so that the wait for its exit ends when it
// exits, whatever holds the pipes open. p.mu is held.
func (p *Policy) start() (*process, error) {
	var ends [6]*os.File // read, write: stdin, stdout, stderr
	for i := 0; i < len(ends); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(ends[:i])
			return nil, p.newError("cannot be started", err)
		}
		ends[i], ends[i+1] = r, w
	}
	cmd := &exec.Cmd{
		Path:   p.path,
		Args:   p.argv,
		Dir:    p.dir,
		Env:    p.env,
		Stdin:  ends[0],
		Stdout: ends[3],
		Stderr: ends[5],
	}
	ownGroup(cmd)
	err := cmd.Start()
	closeAll([]*os.File{ends[0], ends[3], ends[5]}) // the command's ends
	if err != nil {
		closeAll([]*os.File{ends[1], ends[2], ends[4]})
		return nil, p.newError("cannot be started", err)
	}
	pr := &process{
		cmd:        cmd,
		stdin:      ends[1],
		stdout:     ends[2],
		stderr:     ends[4],
		stderrDone: make(chan struct{}),
		answers:    make(chan answer, 256),
		quit:       make(chan struct{}),
		waitDone:   make(chan struct{}),
		written:    make(chan error, 1),
	}
	addRunning(pr)
	go pr.wait()
	go pr.read()
	go pr.copyStderr(p.stderr)
	return pr, nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// copyStderr copies the standard error to sink until it ends or is
// closed.
func (pr *process) copyStderr(sink *stderrSink) {
	defer close(pr.stderrDone)
	io.Copy(sink, pr.stderr)
}

// settle waits a moment for the end of the standard error of a command
// that has exited, so that an error message has its last words.
func (pr *process) settle() {
	select {
	case <-pr.stderrDone:
	case <-time.After(exitDrain):
	}
}

func (pr *process) wait() {
	pr.waitErr = pr.cmd.Wait()
	pr.state = pr.cmd.ProcessState
	close(pr.waitDone)
}

// write writes a batch in another goroutine, so that answers are read
// while the cases are written: a batch larger than the pipe would
// otherwise block both sides. pr.written gets the result.
func (pr *process) write(b []byte) {
	pr.writing = true
	go func() {
		_, err := pr.stdin.Write(b)
		pr.written <- err
	}()
}

// read reads the output line by line into pr.answers until it ends.
func (pr *process) read() {
	defer close(pr.answers)
	readAnswers(pr.stdout, 64<<10, MaxLine, pr.send)
}

// readAnswers reads r line by line, with a buffer of size bytes, and
// hands send each line parsed as an answer (a line ends at a line feed,
// which is dropped with one carriage return before it; an empty line at
// the end of r is no line), then one last answer with errEOF at the end
// of r, errTooLong for a line longer than max bytes without its line
// end, or the error of r. It stops when send returns false.
func readAnswers(r io.Reader, size, max int, send func(answer) bool) {
	br := bufio.NewReaderSize(r, size)
	var long []byte // a line longer than the buffer, so far
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, chunk...)
			if len(long) > max+1 { // room for a CR
				send(answer{err: errTooLong})
				return
			}
			continue
		}
		line := chunk
		if long != nil {
			line = append(long, chunk...)
			long = nil
		}
		if len(line) > 0 {
			line = lines.TrimCR(bytes.TrimSuffix(line, []byte("\n")))
			if len(line) > max {
				send(answer{err: errTooLong})
				return
			}
			if !send(parseAnswer(line)) {
				return
			}
		}
		if err != nil {
			if err == io.EOF {
				err = errEOF
			}
			send(answer{err: err})
			return
		}
	}
}

// send hands a to the batch that waits for it; false when the reader
// must stop.
func (pr *process) send(a answer) bool {
	select {
	case pr.answers <- a:
		return true
	case <-pr.quit:
		return false
	}
}

// parseAnswer reads one answer line, its line end removed.
func parseAnswer(line []byte) answer {
	word, reason, _ := bytes.Cut(line, []byte("\t"))
	var v engine.Verdict
	switch string(word) {
	case "allow":
		v = engine.Allow
	case "reject":
		v = engine.Reject
	case "invalid":
		v = engine.Invalid
	default:
		return answer{garbage: true, line: string(line)}
	}
	r := noReason
	if len(reason) > 0 {
		r = engine.ClipReason(printable.String(strings.ToValidUTF8(string(reason), "\uFFFD")))
	}
	return answer{result: engine.Result{Verdict: v, Reason: r}}
}

// closeInput closes the command's standard input: the end of the run.
func (pr *process) closeInput() {
	pr.inputOnce.Do(func() { pr.stdin.Close() })
}

// kill kills the command's process group, closes both pipes and waits
// until the command's exit is known and the reader and writer have
// stopped.
func (pr *process) kill() {
	pr.killOnce.Do(func() {
		killGroup(pr.cmd)
		removeRunning(pr)
		pr.closeInput() // a blocked write returns
		close(pr.quit)  // a blocked send returns
		pr.stdout.Close()
		pr.stderr.Close()
		<-pr.waitDone
		for range pr.answers {
		}
		<-pr.stderrDone
		if pr.writing {
			<-pr.written
			pr.writing = false
		}
	})
}

// stderrSink is the command's standard error: passed on to out, and its
// end kept for messages.
type stderrSink struct {
	out  io.Writer
	mu   sync.Mutex
	kept []byte
}

// Write keeps the end of b and passes b on; it never fails, so that the
// command never blocks on its standard error.
func (s *stderrSink) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out != nil {
		s.out.Write(b)
	}
	s.kept = append(s.kept, b...)
	if len(s.kept) > 2*stderrKept {
		s.kept = append(s.kept[:0], s.kept[len(s.kept)-stderrKept:]...)
	}
	return len(b), nil
}

// tail is the end of the standard error, at most stderrKept bytes,
// starting at a line when it can, without the final line end.
func (s *stderrSink) tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.kept
	if len(t) > stderrKept {
		t = t[len(t)-stderrKept:]
		if i := bytes.IndexByte(t, '\n'); i >= 0 && i < len(t)-1 {
			t = t[i+1:]
		}
	}
	return strings.ToValidUTF8(strings.TrimRight(string(t), "\r\n"), "\uFFFD")
}
