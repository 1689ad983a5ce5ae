package pin

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/safefile"
)

// A guard decides where pin may write and remove files: inside the
// boundary, which is the top of the Git repository that holds the root
// module's directory (the first directory from it up that has a .git
// entry), or that directory itself outside a repository; never through a
// symbolic link at the file itself. Every path is resolved (links
// followed) before it is judged, so that a module directory that links
// out of the tree is seen for what it is.
type guard struct {
	// realDir is the root module's directory, absolute with its links
	// followed; reports name files relative to it.
	realDir string
	// root is the boundary, resolved; what names it in messages.
	root, what string
	outside    bool
}

// newGuard returns the guard of the tree rooted at dir; allowOutside lets
// writes and removals leave the boundary (never through a link at the
// file itself).
func newGuard(dir string, allowOutside bool) (*guard, error) {
	real, err := resolveDir(dir)
	if err != nil {
		return nil, err
	}
	g := &guard{realDir: real, root: real, what: "the root module's directory " + clip(real), outside: allowOutside}
	for d := real; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			g.root, g.what = d, "the repository "+clip(d)
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return g, nil
}

// resolveDir returns dir absolute, with every symbolic link followed.
func resolveDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("pin: %s: %w", clip(dir), err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("pin: cannot resolve the directory %s: %w", clip(dir), err)
	}
	return real, nil
}

// RefusedError is the error of a file pin will not write or remove: it
// is a symbolic link, or it lies outside the boundary (see Options.AllowOutside).
type RefusedError struct {
	// Path is the file as the configuration reaches it; Resolved where
	// its directory's links lead.
	Path, Resolved string
	// Link is set when the file itself is a symbolic link.
	Link bool
	msg  string
}

// linked reports whether the file itself is a symbolic link.
func (e *RefusedError) linked() bool { return e.Link }

// Error says which file, where it leads and why it is refused.
func (e *RefusedError) Error() string { return e.msg }

// target is a file pin writes or removes, once judged.
type target struct {
	// given is the path as the configuration reaches it; path where it
	// is written: resolved, absolute.
	given, path string
	// rel names it relative to the root module's directory (resolved);
	// via, when a link lies on the way, is the path the configuration
	// reaches it by, relative to the root module's directory as given.
	rel, via string
}

// judge resolves the directory of path (a file pin writes or removes, as
// the configuration reaches it, relative to the working directory or
// absolute) and refuses it with a *RefusedError when the file is a
// symbolic link, or lies outside the boundary and the guard does not
// allow that. dir is the root module's directory as given.
func (g *guard) judge(dir, path string) (target, error) {
	rd, err := resolveDir(filepath.Dir(path))
	if err != nil {
		return target{}, err
	}
	resolved := filepath.Join(rd, filepath.Base(path))
	t := target{given: path, path: resolved, rel: relPath(g.realDir, resolved)}
	if lexical := relPath(dir, path); filepath.Join(g.realDir, lexical) != resolved {
		t.via = lexical
	}
	name := t.rel
	if t.via != "" {
		name = t.via + " (" + t.rel + " once links are followed)"
	}
	if fi, err := os.Lstat(resolved); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		to, _ := os.Readlink(resolved)
		return t, &RefusedError{Path: path, Resolved: resolved, Link: true,
			msg: fmt.Sprintf("%s is a symbolic link to %s: prerel never writes through, replaces nor removes a link", clip(name), clip(to))}
	}
	if !g.outside && !within(g.root, resolved) {
		return t, &RefusedError{Path: path, Resolved: resolved,
			msg: fmt.Sprintf("%s is %s, outside %s: prerel writes and removes files only inside it (--allow-outside lets it)", clip(name), clip(resolved), g.what)}
	}
	return t, nil
}

// relPath returns path relative to dir, with ".." where it lies outside,
// or path itself when it cannot be made relative (one absolute, one
// not).
func relPath(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil {
		return r
	}
	return path
}

// within reports whether path is root or lies under it.
func within(root, path string) bool {
	r, err := filepath.Rel(root, path)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

// clip returns outside text for a message: printable, and at most 200
// bytes.
func clip(s string) string { return printable.String(elide.Middle(s, 200)) }

// headerLimit bounds what Owned reads of a file: the header alone.
const headerLimit = 4 << 10

// headerLines is how many lines the header has.
var headerLines = strings.Count(header(DefaultCommand), "\n")

// firstLine matches the first line of the header: HeaderPrefix, then the
// command that wrote the file.
var firstLine = regexp.MustCompile(`^` + regexp.QuoteMeta(HeaderPrefix) + ` \([^\x00-\x1f\x7f]*\)\.$`)

// isHeader reports whether src starts with the whole header pin writes,
// whatever command its first line names.
func isHeader(src []byte) bool {
	lines := strings.SplitAfterN(string(src), "\n", headerLines+1)
	if len(lines) < headerLines {
		return false
	}
	want := strings.SplitAfter(header(DefaultCommand), "\n")
	for i := 1; i < headerLines; i++ {
		if lines[i] != want[i] {
			return false
		}
	}
	return strings.HasSuffix(lines[0], "\n") && firstLine.MatchString(strings.TrimSuffix(lines[0], "\n"))
}

// readHeader reads at most headerLimit bytes of the regular file at path
// (not following a link at path itself): nil and no error when it does
// not exist or is a link or not a regular file.
func readHeader(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !fi.Mode().IsRegular() {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pin: %w", err)
	}
	f, err := safefile.Open(path, false)
	if err != nil {
		return nil, fmt.Errorf("pin: %w", err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, headerLimit))
	if err != nil {
		return nil, fmt.Errorf("pin: %w", err)
	}
	return src, nil
}

// leftover matches the temporary files a write of pin's override file
// leaves when the process is killed before it renames them: a dot, the
// file name, then random digits.
var leftover = regexp.MustCompile(`^\.` + regexp.QuoteMeta(FileName) + `[0-9]+$`)

// isLeftover reports whether the file at path is a temporary file pin
// left: named as leftover matches, a regular file, and empty, the start
// of pin's header, or a file that starts with it.
func isLeftover(path string) (bool, error) {
	if !leftover.MatchString(filepath.Base(path)) {
		return false, nil
	}
	src, err := readHeader(path)
	if err != nil || src == nil {
		return false, err
	}
	return strings.HasPrefix(HeaderPrefix, string(src)) || strings.HasPrefix(string(src), HeaderPrefix), nil
}
