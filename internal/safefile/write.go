package safefile

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TargetError is the error of a path that no file can be written to,
// whatever the permissions: a directory, a FIFO, device or socket, or a
// symbolic link to one.
type TargetError struct {
	Path string // the path as given
	msg  string
}

// Error says what is wrong with the path, naming it.
func (e *TargetError) Error() string { return e.msg }

// missingDirError is the error of a path in a directory that does not
// exist; it is an fs.ErrNotExist.
type missingDirError struct{ msg string }

func (e *missingDirError) Error() string { return e.msg }
func (e *missingDirError) Unwrap() error { return fs.ErrNotExist }

// maxLinks bounds the symbolic links followed to a write's target.
const maxLinks = 40

// WriteOptions tunes Write.
type WriteOptions struct {
	// Noun names the kind of file for messages: "baseline" gives "no file
	// name for the baseline" and "a baseline is written only to a regular
	// file". Empty means "file".
	Noun string
	// Perm, when it is not zero, is the mode of the written file, the
	// umask ignored. When it is zero, a file that exists keeps its mode
	// (and its owner, where the process may set it), and a new file gets
	// mode 0666 less the umask, as os.Create gives.
	Perm fs.FileMode
	// ReplaceLinks replaces a symbolic link at path by the file written,
	// as a rename does, instead of writing the file it links to.
	ReplaceLinks bool
	// Name, when it is not empty, names the file in the messages of a
	// failed write instead of path (a path relative to the directory the
	// user named, where path is a resolved one).
	Name string
}

func (o WriteOptions) noun() string {
	if o.Noun == "" {
		return "file"
	}
	return o.Noun
}

// Target follows the symbolic links of path to the file that Write
// replaces or creates, and returns it with its FileInfo (nil when it does
// not exist yet, or is a link that opt.ReplaceLinks replaces). A path
// that is a directory, a FIFO, a device or a socket, or a link to one
// that is followed, is refused with a *TargetError, and so is a file in
// a directory that does not exist, with an error that wraps
// fs.ErrNotExist.
func Target(path string, opt WriteOptions) (string, fs.FileInfo, error) {
	noun := opt.noun()
	if path == "" {
		return "", nil, &TargetError{Path: path, msg: "no file name for the " + noun}
	}
	if strings.HasSuffix(path, string(filepath.Separator)) {
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s is a directory", path)}
		}
		return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s ends in %q: it names a directory, not a file", path, filepath.Separator)}
	}
	what := func(target string) string {
		if target == path {
			return path
		}
		return fmt.Sprintf("%s (a link to %s)", path, target)
	}
	// Following every link at once also sees through the links of /proc
	// (/dev/stdout), whose targets are no paths.
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !opt.ReplaceLinks {
		if fi.IsDir() {
			return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s is a directory", path)}
		}
		return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s is not a regular file (it is %s); %s %s is written only to a regular file",
			path, Kind(fi.Mode()), article(noun), noun)}
	}
	target := path
	for links := 0; ; links++ {
		fi, err := os.Lstat(target)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			dir := filepath.Dir(target)
			di, err := os.Stat(dir)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return "", nil, &missingDirError{fmt.Sprintf("cannot write %s: the directory %s does not exist", what(target), dir)}
			case err != nil:
				return "", nil, writeError(what(target), err)
			case !di.IsDir():
				return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("cannot write %s: %s is not a directory", what(target), dir)}
			}
			return target, nil, nil
		case err != nil:
			return "", nil, writeError(what(target), err)
		case fi.Mode()&fs.ModeSymlink != 0 && opt.ReplaceLinks:
			return target, nil, nil
		case fi.Mode()&fs.ModeSymlink != 0:
			if links == maxLinks {
				return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("cannot write %s: more than %d symbolic links", path, maxLinks)}
			}
			link, err := os.Readlink(target)
			if err != nil {
				return "", nil, writeError(what(target), err)
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(filepath.Dir(target), link)
			}
			target = link
		case fi.IsDir():
			return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s is a directory", what(target))}
		case !fi.Mode().IsRegular():
			return "", nil, &TargetError{Path: path, msg: fmt.Sprintf("%s is not a regular file (it is %s); %s %s is written only to a regular file",
				what(target), Kind(fi.Mode()), article(noun), noun)}
		default:
			return target, fi, nil
		}
	}
}

func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an"
	}
	return "a"
}

// Write writes a file atomically: fill writes its content to a
// temporary file in the same directory, which is then synced and renamed
// over path (github.com/google/renameio), and the directory is synced, so
// that a reader never sees half a file and a crash leaves the old file or
// the new one.
//
// When path is a symbolic link, the file it links to is written and the
// link is kept, unless opt.ReplaceLinks. What Target refuses is refused before anything is
// written. fill's own error is returned as it is; any other failure says
// "cannot write PATH" with the system's reason, never naming the
// temporary file, which is removed.
func Write(path string, opt WriteOptions, fill func(w *bufio.Writer) error) (err error) {
	target, old, err := Target(path, opt)
	if err != nil {
		return err
	}
	name := path
	switch {
	case opt.Name != "":
		name = opt.Name
	case target != path:
		name = fmt.Sprintf("%s (a link to %s)", path, target)
	}
	f, err := createPending(target, old, opt.Perm)
	if err != nil {
		return writeError(name, err)
	}
	defer f.Cleanup()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := fill(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return writeError(name, err)
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return writeError(name, err)
	}
	if d, err := os.Open(filepath.Dir(target)); err == nil {
		d.Sync() // make the rename durable where the system allows
		d.Close()
	}
	return nil
}

// WriteFile writes data to path as Write does.
func WriteFile(path string, opt WriteOptions, data []byte) error {
	return Write(path, opt, func(w *bufio.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeError says that name cannot be written, with the system's reason
// and without the name of any temporary file.
func writeError(name string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return fmt.Errorf("cannot write %s: %w", name, err)
}

// Prepared is a file written in full to a temporary file beside its
// target but not yet in place: Commit renames it over the target, and
// Discard removes it. Writing several files as one change prepares them
// all first, so that a full disk or a directory that cannot be written
// is found before any target changes.
type Prepared struct {
	name, target string
	f            interface {
		Cleanup() error
		CloseAtomicallyReplace() error
	}
}

// Prepare writes data to a temporary file in the directory of path's
// target (Target, with its refusals) and syncs it. Its errors say
// "cannot write PATH" with the system's reason, never naming the
// temporary file, which is removed.
func Prepare(path string, opt WriteOptions, data []byte) (*Prepared, error) {
	target, old, err := Target(path, opt)
	if err != nil {
		return nil, err
	}
	name := path
	switch {
	case opt.Name != "":
		name = opt.Name
	case target != path:
		name = fmt.Sprintf("%s (a link to %s)", path, target)
	}
	f, err := createPending(target, old, opt.Perm)
	if err != nil {
		return nil, writeError(name, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Cleanup()
		return nil, writeError(name, err)
	}
	if err := f.Sync(); err != nil {
		f.Cleanup()
		return nil, writeError(name, err)
	}
	return &Prepared{name: name, target: target, f: f}, nil
}

// Commit renames the prepared file over its target and syncs the
// directory.
func (p *Prepared) Commit() error {
	if err := p.f.CloseAtomicallyReplace(); err != nil {
		p.f.Cleanup()
		return writeError(p.name, err)
	}
	if d, err := os.Open(filepath.Dir(p.target)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Discard removes the prepared file, leaving the target as it was.
func (p *Prepared) Discard() { p.f.Cleanup() }
