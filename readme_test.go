package prerel_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/terraform/installer/installertest"
)

// docCommand is one command of a page's sh blocks and the sample output
// that follows it, if any.
type docCommand struct {
	page   string // the page, as in docPages
	line   int    // where the command is on the page
	text   string // as written
	sample []string
	// sampleLine is the page's line of the sample's first line.
	sampleLine int
}

// buildLine is the command the pages build prerel with; the commands after
// it on the same page call ./prerel.
const buildLine = "go build -o prerel ./cmd/prerel"

// docPages returns the pages whose shell examples are run: README.md, then
// every docs/*.md in name order.
func docPages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(docs)
	return append([]string{"README.md"}, docs...)
}

// pageCommands returns every command of page's sh blocks, in order, with
// the text block that follows a block of one command as its sample output.
func pageCommands(t *testing.T, page string) []docCommand {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []docCommand
	var block string // the info string of the open block, "" outside one
	var blockCmds []docCommand
	lastBlock := []docCommand(nil)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case block == "" && strings.HasPrefix(line, "```"):
			block = strings.TrimPrefix(line, "```")
			if block == "" {
				block = "plain"
			}
			blockCmds = nil
		case block != "" && line == "```":
			if block == "sh" {
				cmds = append(cmds, blockCmds...)
				lastBlock = blockCmds
			} else if block == "text" && len(lastBlock) == 1 {
				cmds[len(cmds)-1].sample = blockCmds[0].sample
				cmds[len(cmds)-1].sampleLine = blockCmds[0].sampleLine
			}
			if block != "sh" {
				lastBlock = nil
			}
			block = ""
		case block == "sh":
			if cmd := strings.TrimSpace(line); cmd != "" && !strings.HasPrefix(cmd, "#") {
				blockCmds = append(blockCmds, docCommand{page: page, line: n, text: cmd})
			}
		case block == "text":
			if len(blockCmds) == 0 {
				blockCmds = []docCommand{{sampleLine: n}}
			}
			blockCmds[0].sample = append(blockCmds[0].sample, line)
		case block == "" && strings.TrimSpace(line) != "":
			lastBlock = nil
		}
	}
	if block != "" {
		t.Fatalf("%s: a %s block is not closed", page, block)
	}
	return cmds
}

// TestReadmeCommands runs the commands of README.md and of every page under
// docs as a user would: each page top to bottom in one shell, from the root
// of a fresh copy of the repository (its tracked files and those git does
// not ignore, so that a prerel built here is not part of it), with TMPDIR a
// directory of the page's own. It checks the sample outputs, and that a
// page leaves no new file in the copy but the prerel it built. Each command
// must exit 0.
//
// The shell's go is a function: "go run ./cmd/prerel ARGS" runs a prerel
// the test built, as go run does (a failure prints "exit status N" on
// stderr and exits 1), "go build -o prerel ./cmd/prerel" puts that prerel
// at the root, other go build, go install and go test commands do nothing
// (go test is what runs this), and any other go command is run. With
// -update it rewrites the samples with what the commands print.
func TestReadmeCommands(t *testing.T) {
	longtest.Skip(t) // runs every command of the README and the docs
	if raceEnabled {
		t.Skip("runs every command of the README and the docs; skipped under the race detector")
	}
	bin := filepath.Join(t.TempDir(), "prerel")
	build := exec.Command("go", "build", "-o", bin, "./cmd/prerel")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	files := repositoryFiles(t)
	for _, page := range docPages(t) {
		cmds := pageCommands(t, page)
		if len(cmds) == 0 {
			continue
		}
		t.Run(filepath.Base(page), func(t *testing.T) {
			work := copyRepository(t, files)
			sh := startDocShell(t, work, bin)
			var printed []sampleOutput
			for _, c := range cmds {
				t.Run(c.text, func(t *testing.T) {
					out := sh.run(t, c)
					if c.sample == nil {
						return
					}
					if golden.Update() {
						printed = append(printed, sampleOutput{c, out})
						return
					}
					checkSample(t, c, out)
				})
			}
			sh.close(t)
			if golden.Update() {
				updateSamples(t, page, printed)
			}
			for _, f := range newFiles(t, work, files) {
				t.Errorf("%s: its commands leave %s in the repository: write it under ${TMPDIR:-/tmp} instead", page, f)
			}
		})
	}
}

// docShellInit defines the shell's go function; PRERELTEST_BIN names the
// prerel the test built.
const docShellInit = `set -o pipefail
go() {
  if [ "$1" = run ] && [ "$2" = ./cmd/prerel ]; then
    shift 2
    "$PRERELTEST_BIN" "$@"
    local status=$?
    if [ "$status" -ne 0 ]; then
      echo "exit status $status" >&2
      return 1
    fi
    return 0
  fi
  if [ "go $*" = "` + buildLine + `" ]; then
    cp "$PRERELTEST_BIN" prerel
    return
  fi
  case "$1" in
  build|install|test) return 0 ;;
  esac
  command go "$@"
}
`

// docShell is one bash process that runs a page's commands in order, so
// that a cd or a variable carries to the next command as it does for a
// user.
type docShell struct {
	cmd      *exec.Cmd
	cancel   context.CancelFunc
	stdin    io.WriteCloser
	statuses chan string // the exit status of each command, then closed
	dir      string      // the command files and their outputs
	n        int
}

// startDocShell starts bash in work, with TMPDIR a new directory and
// GITHUB_STEP_SUMMARY unset.
func startDocShell(t *testing.T, work, bin string) *docShell {
	t.Helper()
	dir := t.TempDir()
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "init.sh"), []byte(docShellInit), 0o644); err != nil {
		t.Fatal(err)
	}
	// The commands of one page run in at most 30 minutes, each in at
	// most 2, or 20 for a build (see commandLimit).
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc")
	cmd.Dir = work
	cmd.WaitDelay = 5 * time.Second
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GITHUB_STEP_SUMMARY=") && !strings.HasPrefix(kv, "TMPDIR=") && !strings.HasPrefix(kv, "PREREL_INSTALLER=") {
			env = append(env, kv)
		}
	}
	// The samples show the fixtures' releases as today's
	// (installertest), whatever terraform or tofu this machine has and
	// whichever releases are the newest prerel knows, so that a release
	// added to the table changes no sample (docs/installers.md says so).
	cmd.Env = append(env, "TMPDIR="+tmp, "PRERELTEST_BIN="+bin, "PREREL_INSTALLER="+installertest.Env)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	sh := &docShell{cmd: cmd, cancel: cancel, stdin: stdin, statuses: make(chan string), dir: dir}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			sh.statuses <- sc.Text()
		}
		close(sh.statuses)
	}()
	if _, err := fmt.Fprintf(stdin, ". %s\n", shellQuote(filepath.Join(dir, "init.sh"))); err != nil {
		t.Fatal(err)
	}
	return sh
}

// run runs c in the shell, bounded in time, and returns its standard
// output; it fails t when c exits with another status than 0.
func (sh *docShell) run(t *testing.T, c docCommand) string {
	t.Helper()
	sh.n++
	base := filepath.Join(sh.dir, strconv.Itoa(sh.n))
	if err := os.WriteFile(base+".sh", []byte(c.text+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The command reads nothing from the shell's input, and its outputs go
	// to files; the shell's own output is the status alone.
	line := fmt.Sprintf(". %s </dev/null >%s 2>%s; echo \"$?\"\n",
		shellQuote(base+".sh"), shellQuote(base+".out"), shellQuote(base+".err"))
	if _, err := io.WriteString(sh.stdin, line); err != nil {
		t.Fatalf("%s:%d: %s: the shell has stopped: %v", c.page, c.line, c.text, err)
	}
	var status string
	var ok bool
	limit := commandLimit(c.text)
	select {
	case status, ok = <-sh.statuses:
	case <-time.After(limit):
		sh.cancel()
		t.Fatalf("%s:%d: %s: still running after %v", c.page, c.line, c.text, limit)
	}
	stdout, _ := os.ReadFile(base + ".out")
	stderr, _ := os.ReadFile(base + ".err")
	if !ok {
		t.Fatalf("%s:%d: %s: the shell exited\nstderr:\n%s", c.page, c.line, c.text, stderr)
	}
	if status != "0" {
		t.Fatalf("%s:%d: %s: exit status %s\nstderr:\n%s", c.page, c.line, c.text, status, stderr)
	}
	return string(stdout)
}

// commandLimit is how long a page's command may run: 2 minutes, and 20
// for a build script of ./upstream (docs/upstream.md), which copies its
// binary from the cache when .ci/run built it first and otherwise builds
// a patched installer (about 10 minutes on two cores).
func commandLimit(text string) time.Duration {
	if strings.HasPrefix(text, "upstream/") && strings.Contains(text, "/build.sh ") {
		return 20 * time.Minute
	}
	return 2 * time.Minute
}

// close ends the shell's input and waits for it to exit.
func (sh *docShell) close(t *testing.T) {
	t.Helper()
	defer sh.cancel()
	sh.stdin.Close()
	for range sh.statuses {
	}
	if err := sh.cmd.Wait(); err != nil && !errors.Is(err, context.Canceled) {
		t.Logf("the shell: %v", err)
	}
}

// shellQuote quotes s for bash.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkSample compares a command's output with its sample: all of it, or
// the lines before a last line "...".
func checkSample(t *testing.T, c docCommand, out string) {
	t.Helper()
	want, got := sampleLines(c, out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:%d: the sample output of %s is not what it prints:\n--- printed\n%s\n--- %s\n%s",
			c.page, c.line, c.text, strings.Join(got, "\n"), c.page, strings.Join(want, "\n"))
	}
}

// sampleLines returns the lines of c's sample that are checked and the
// lines of out they are checked against: a sample that ends with a line
// "..." shows only the first lines of what the command prints.
func sampleLines(c docCommand, out string) (want, got []string) {
	want = c.sample
	prefix := len(want) > 0 && want[len(want)-1] == "..."
	if prefix {
		want = want[:len(want)-1]
	}
	got = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if prefix && len(got) > len(want) {
		got = got[:len(want)]
	}
	return want, got
}

// sampleOutput is what a command with a sample printed.
type sampleOutput struct {
	cmd docCommand
	out string
}

// updateSamples rewrites the samples of page with what their commands
// printed (go test -run TestReadmeCommands -update): a sample that ends
// with "..." keeps its length.
func updateSamples(t *testing.T, page string, printed []sampleOutput) {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	// From the bottom up, so that earlier line numbers still hold.
	for i := len(printed) - 1; i >= 0; i-- {
		c := printed[i].cmd
		want, got := sampleLines(c, printed[i].out)
		start := c.sampleLine - 1
		lines = append(lines[:start], append(slices.Clone(got), lines[start+len(want):]...)...)
	}
	if err := os.WriteFile(page, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// repositoryFiles lists the files a fresh clone would have, with the
// changes not yet committed: git's tracked files and the untracked ones it
// does not ignore. Without git, every file but .git and a prerel at the
// root.
func repositoryFiles(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err == nil {
		var files []string
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, filepath.FromSlash(f))
			}
		}
		return files
	}
	t.Logf("git ls-files: %v; copying every file but .git and ./prerel", err)
	var files []string
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && path != "prerel" {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// copyRepository copies files to a new temporary directory, keeping their
// permission bits (a script stays executable), so that commands that
// write files change nothing here. A listed file that no longer exists (a
// deletion not yet committed) is left out.
func copyRepository(t *testing.T, files []string) string {
	t.Helper()
	dst := t.TempDir()
	for _, f := range files {
		info, err := os.Lstat(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !info.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// newFiles lists the files in work that are not among files, but for the
// prerel a page builds at the root.
func newFiles(t *testing.T, work string, files []string) []string {
	t.Helper()
	known := map[string]bool{"prerel": true}
	for _, f := range files {
		known[f] = true
	}
	var added []string
	err := filepath.WalkDir(work, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(work, path)
		if err != nil {
			return err
		}
		if !d.IsDir() && !known[rel] {
			added = append(added, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return added
}

// TestReadmeCommandsParse checks, without running anything, that every
// page's blocks close, that the README's samples are there, and that no
// page calls ./prerel before the line that builds it.
func TestReadmeCommandsParse(t *testing.T) {
	for _, page := range docPages(t) {
		cmds := pageCommands(t, page)
		built := false
		var withSample int
		for _, c := range cmds {
			if c.sample != nil {
				withSample++
			}
			if c.text == buildLine {
				built = true
			}
			if !built && strings.Contains(c.text, "./prerel ") {
				t.Errorf("%s:%d: %s runs ./prerel before %q builds it", page, c.line, c.text, buildLine)
			}
		}
		if page == "README.md" && withSample < 1 {
			t.Errorf("README.md: %d commands with a sample output, want at least 1", withSample)
		}
	}
}
