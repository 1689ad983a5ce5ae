package prerel_test

import (
	"bufio"
	"bytes"
	"context"
	"github.com/prerel/prerel/internal/longtest"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readmeCommand is one command of a README sh block and the sample output
// that follows it, if any.
type readmeCommand struct {
	line   int    // where the command is in README.md
	text   string // as written
	sample []string
}

// readmeCommands returns every command of README.md's sh blocks, with the
// text block that follows a block of one command as its sample output.
func readmeCommands(t *testing.T) []readmeCommand {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []readmeCommand
	var block string // the info string of the open block, "" outside one
	var blockCmds []readmeCommand
	lastBlock := []readmeCommand(nil)
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
			}
			if block != "sh" {
				lastBlock = nil
			}
			block = ""
		case block == "sh":
			if cmd := strings.TrimSpace(line); cmd != "" && !strings.HasPrefix(cmd, "#") {
				blockCmds = append(blockCmds, readmeCommand{line: n, text: cmd})
			}
		case block == "text":
			if len(blockCmds) == 0 {
				blockCmds = []readmeCommand{{}}
			}
			blockCmds[0].sample = append(blockCmds[0].sample, line)
		case block == "" && strings.TrimSpace(line) != "":
			lastBlock = nil
		}
	}
	if block != "" {
		t.Fatalf("README.md: a %s block is not closed", block)
	}
	return cmds
}

// TestReadmeCommands runs the README's commands as a user would, in a copy
// of the repository with prerel built at its root, and checks the sample
// outputs. Each command must exit 0. go test, go build and go install are
// left out: the test builds prerel itself, and go test is what runs it.
func TestReadmeCommands(t *testing.T) {
	longtest.Skip(t) // runs every command of the README
	if raceEnabled {
		t.Skip("runs every command of the README; skipped under the race detector")
	}
	work := copyRepository(t)
	build := exec.Command("go", "build", "-o", filepath.Join(work, "prerel"), "./cmd/prerel")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmds := readmeCommands(t)
	if len(cmds) < 10 {
		t.Fatalf("only %d commands found in README.md", len(cmds))
	}
	for _, c := range cmds {
		if strings.HasPrefix(c.text, "go test") || strings.HasPrefix(c.text, "go build") || strings.HasPrefix(c.text, "go install") {
			continue
		}
		t.Run(c.text, func(t *testing.T) {
			out := runReadmeCommand(t, work, c)
			if c.sample != nil {
				checkSample(t, c, out)
			}
		})
	}
}

// runReadmeCommand runs c with bash in dir, bounded in time; "go run
// ./cmd/prerel" runs the binary built at dir's root.
func runReadmeCommand(t *testing.T, dir string, c readmeCommand) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	text := strings.ReplaceAll(c.text, "go run ./cmd/prerel", "./prerel")
	cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", text)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("README.md:%d: %s: %v\nstderr:\n%s", c.line, c.text, err, stderr.String())
	}
	return stdout.String()
}

// checkSample compares a command's output with its sample: all of it, or
// the lines before a last line "...".
func checkSample(t *testing.T, c readmeCommand, out string) {
	t.Helper()
	want := c.sample
	prefix := len(want) > 0 && want[len(want)-1] == "..."
	if prefix {
		want = want[:len(want)-1]
	}
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if prefix && len(got) > len(want) {
		got = got[:len(want)]
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("README.md:%d: the sample output of %s is not what it prints:\n--- printed\n%s\n--- README\n%s",
			c.line, c.text, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// copyRepository copies the repository's files, without .git, to a new
// temporary directory, so that commands that write files change nothing
// here.
func copyRepository(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, path), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, path), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestReadmeCommandsParse(t *testing.T) {
	cmds := readmeCommands(t)
	var withSample int
	for _, c := range cmds {
		if c.sample != nil {
			withSample++
		}
	}
	if withSample < 2 {
		t.Errorf("%d commands with a sample output, want at least 2", withSample)
	}
}
