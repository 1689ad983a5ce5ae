package installer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	goversion "github.com/hashicorp/go-version"
)

// Found is the release of a product that stands for today's installer,
// and where it came from.
type Found struct {
	Release Release
	// From says where the release came from, for a report's header:
	// "terraform on PATH", ".terraform-version in /src/app", or "the
	// newest prerel knows".
	From string
}

// FromNewest is Found.From for a product found nowhere.
const FromNewest = "the newest prerel knows"

// DetectOptions tunes Detect; the zero value looks on the process's PATH.
type DetectOptions struct {
	// LookPath finds a program as exec.LookPath does (the default).
	LookPath func(name string) (string, error)
	// Version runs `PATH version -json` and returns its standard output;
	// the default runs it with CHECKPOINT_DISABLE=1 (no update check over
	// the network), at most Timeout, reading at most 64 KiB.
	Version func(ctx context.Context, path string) ([]byte, error)
	// Timeout bounds each version command; 0 means 10 s.
	Timeout time.Duration
}

// versionFiles are the files version managers keep the release in:
// tfenv's and tofuenv's.
var versionFiles = map[Product]string{Terraform: ".terraform-version", OpenTofu: ".opentofu-version"}

// Detect finds, for Terraform and for OpenTofu, the release the user
// runs: the program on PATH ("terraform", "tofu") answering `version
// -json`; else the version file of tfenv or tofuenv (.terraform-version,
// .opentofu-version) in dir or the nearest directory above it that has
// one, when it names an exact version; else the newest release prerel
// knows. A release older or newer than those prerel knows stands for the
// oldest or newest it knows; a build from source ("1.12.6-dev") for its
// release. notes say what was set aside, one line each.
func Detect(ctx context.Context, dir string, opts DetectOptions) (tf, tofu Found, notes []string) {
	if opts.LookPath == nil {
		opts.LookPath = exec.LookPath
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Version == nil {
		opts.Version = func(ctx context.Context, path string) ([]byte, error) { return runVersion(ctx, path, opts.Timeout) }
	}
	found := map[Product]*Found{}
	for _, p := range []Product{Terraform, OpenTofu} {
		f, more := onPath(ctx, p, opts)
		notes = append(notes, more...)
		if f == nil {
			f, more = inVersionFile(p, dir)
			notes = append(notes, more...)
		}
		if f == nil {
			f = &Found{Release: Newest(p), From: FromNewest}
		}
		found[p] = f
	}
	return *found[Terraform], *found[OpenTofu], notes
}

// program names the program of each product.
var program = map[Product]string{Terraform: "terraform", OpenTofu: "tofu"}

// onPath asks the product's program on PATH for its version.
func onPath(ctx context.Context, p Product, opts DetectOptions) (*Found, []string) {
	name := program[p]
	path, err := opts.LookPath(name)
	if err != nil {
		return nil, nil
	}
	out, err := opts.Version(ctx, path)
	if err != nil {
		return nil, []string{fmt.Sprintf("%s version -json (%s) failed: %v", name, path, err)}
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	// The JSON object starts a line: OpenTofu prints its CLI
	// configuration's problems to standard output before it, and only
	// the first object counts.
	start := 0
	if !bytes.HasPrefix(out, []byte("{")) {
		start = bytes.Index(out, []byte("\n{")) + 1
	}
	if err := json.NewDecoder(bytes.NewReader(out[start:])).Decode(&v); err != nil || v.Version == "" {
		return nil, []string{fmt.Sprintf("%s version -json (%s) did not give a version", name, path)}
	}
	r, note := nearest(p, v.Version)
	f := &Found{Release: r, From: name + " on PATH"}
	if note != "" {
		return f, []string{fmt.Sprintf("%s on PATH (%s) %s", name, path, note)}
	}
	return f, nil
}

// inVersionFile reads the product's version file in dir or above.
func inVersionFile(p Product, dir string) (*Found, []string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil
	}
	for d, depth := abs, 0; depth < 256; d, depth = filepath.Dir(d), depth+1 {
		path := filepath.Join(d, versionFiles[p])
		if src, err := readSmall(path); err == nil {
			text := strings.TrimSpace(strings.SplitN(string(src), "\n", 2)[0])
			if _, err := goversion.NewSemver(strings.TrimPrefix(text, "v")); err != nil || strings.ContainsAny(text, " :^~<>=") {
				return nil, []string{fmt.Sprintf("%s names %q, not an exact version: set aside", path, clipNote(text))}
			}
			r, note := nearest(p, strings.TrimPrefix(text, "v"))
			f := &Found{Release: r, From: versionFiles[p] + " in " + d}
			if note != "" {
				return f, []string{fmt.Sprintf("%s %s", path, note)}
			}
			return f, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, []string{fmt.Sprintf("%s: %v", path, err)}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return nil, nil
}

// readSmall reads a regular file of at most 1 KiB.
func readSmall(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<10))
}

// nearest returns the release that stands for version of p: itself, its
// release for a build from source or a prerelease, or the oldest or
// newest prerel knows; note says which when it is not itself.
func nearest(p Product, version string) (Release, string) {
	v, err := goversion.NewSemver(strings.TrimPrefix(version, "v"))
	if err != nil {
		return Newest(p), fmt.Sprintf("reports %q, which is not a version: standing for %s", clipNote(version), Newest(p))
	}
	segs := v.Segments()
	for len(segs) < 3 {
		segs = append(segs, 0)
	}
	core := fmt.Sprintf("%d.%d.%d", segs[0], segs[1], segs[2])
	oldest, newest := bounds(p)
	cv := goversion.Must(goversion.NewVersion(core))
	switch {
	case cv.LessThan(oldest.v):
		return oldest, fmt.Sprintf("is %s %s, older than prerel knows: standing for %s", p.Display(), clipNote(version), oldest)
	case cv.GreaterThan(newest.v):
		return newest, fmt.Sprintf("is %s %s, newer than prerel knows: standing for %s", p.Display(), clipNote(version), newest)
	}
	r, err := Parse(string(p) + "@" + core)
	if err != nil {
		return newest, fmt.Sprintf("is %s %s, which prerel cannot read: standing for %s", p.Display(), clipNote(version), newest)
	}
	if core != version {
		return r, fmt.Sprintf("reports %q, a build of %s", clipNote(version), r)
	}
	return r, ""
}

// runVersion runs `path version -json` with no update check.
func runVersion(ctx context.Context, path string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "version", "-json")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	var out bytes.Buffer
	cmd.Stdout = &limitedWriter{w: &out, n: 64 << 10}
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("no answer within %s", timeout)
		}
		return nil, err
	}
	return out.Bytes(), nil
}

// limitedWriter keeps at most n bytes and drops the rest.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n <= 0 {
		return len(p), nil
	}
	k := min(len(p), l.n)
	l.n -= k
	l.w.Write(p[:k])
	return len(p), nil
}

// clip bounds outside text in a note.
func clipNote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}
