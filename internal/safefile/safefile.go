// Package safefile reads the files prerel is given or finds, so that no
// file can hang it or exhaust its memory: every file is checked to be of
// the expected kind and read only up to a size limit.
//
// A file found in a directory (a module's .tf files, prerel.hcl, the lock
// file) must be a regular file: Read refuses a FIFO, device, socket or
// directory without blocking on it, and says of a symbolic link to no
// file where it points (a *DanglingLinkError). A file named on the command line may
// also be a pipe (a FIFO, /dev/stdin, a shell's process substitution):
// ReadNamed reads it once, into memory, within the same limit. A FIFO is
// opened without blocking, then waited for as cat waits for it: until a
// program opens it for writing, for at most WriterWait, after which it is
// refused with a *NoWriterError instead of hanging (on Linux; elsewhere a
// FIFO nobody has opened for writing reads as empty).
//
// The files prerel writes (a baseline, the playground's site) are written
// atomically by Write, through github.com/google/renameio: a reader never
// sees half a file, symbolic links are followed (or, when asked, replaced)
// and never a directory, FIFO, device or socket is written to.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/printable"
)

// Size limits for the kinds of files prerel reads.
const (
	// ConfigLimit caps one configuration file: a .tf or .tf.json file,
	// prerel.hcl, .terraform.lock.hcl, the module manifest.
	ConfigLimit = 2 << 20
	// ListLimit caps a list of versions or cases: --versions-file, a
	// --domain file.
	ListLimit = 64 << 20
	// IndexLimit caps a version index (--index).
	IndexLimit = 64 << 20
	// ReportLimit caps a saved report (--baseline).
	ReportLimit = 512 << 20
)

// WriterWait is how long ReadNamed and Open wait for a program to open a
// FIFO for writing.
var WriterWait = time.Minute

// NoWriterError is the error for a FIFO that no program opened for
// writing within WriterWait.
type NoWriterError struct {
	Path string
	Wait time.Duration
}

func (e *NoWriterError) Error() string {
	return fmt.Sprintf("%s is a FIFO that no program opened for writing within %s", e.Path, e.Wait)
}

// NotRegularError is the error for a file of the wrong kind: a FIFO,
// device, socket or directory where a regular file was expected.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (it is %s)", e.Path, Kind(e.Mode))
}

// DanglingLinkError is the error for a path that is a symbolic link to
// no file: Target is what the link holds, as it holds it. It wraps the
// error of opening the path (an *fs.PathError, fs.ErrNotExist).
type DanglingLinkError struct {
	Path, Target string
	Err          error
}

func (e *DanglingLinkError) Error() string {
	return fmt.Sprintf("%s is a dangling symbolic link: it points to %s, and no file is there", e.Path, printable.String(elide.Middle(e.Target, 200)))
}

func (e *DanglingLinkError) Unwrap() error { return e.Err }

// TooLargeError is the error for a file longer than its limit.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the limit for this kind of file", e.Path, Size(e.Limit))
}

// Kind names the kind of file mode describes, with an article: "a
// directory", "a FIFO", "a device", "a socket", "a regular file".
func Kind(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a FIFO or pipe"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// Size writes a byte count for people: "4 MiB", "512 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read reads the regular file at path, which may be at most limit bytes
// long. Any other kind of file is refused with a *NotRegularError,
// without blocking on it; a longer file with a *TooLargeError; a
// symbolic link to no file with a *DanglingLinkError. Other errors from
// the file system are *fs.PathError, as from os.ReadFile.
func Read(path string, limit int64) ([]byte, error) {
	return read(path, limit, false)
}

// ReadNamed reads a file named on the command line: a regular file as
// Read does, or a pipe, read once into memory within limit. A device,
// socket or directory is refused with a *NotRegularError.
func ReadNamed(path string, limit int64) ([]byte, error) {
	return read(path, limit, true)
}

// IsPipe reports whether path names a FIFO or pipe (following symbolic
// links): its content can be read only once.
func IsPipe(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&fs.ModeNamedPipe != 0
}

func read(path string, limit int64, pipes bool) ([]byte, error) {
	f, err := Open(path, pipes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path, limit)
}

// Open opens the regular file at path for reading (or, when pipes is
// true, also a pipe), checking its kind on the opened file so that no
// other file can be swapped in between the check and the read. Opening
// never blocks on a FIFO; a FIFO opened is then waited for, as cat waits
// for it, until a program opens it for writing, for at most WriterWait
// (a *NoWriterError).
func Open(path string, pipes bool) (*os.File, error) {
	if fi, err := os.Stat(path); err == nil && !allowed(fi.Mode(), pipes) {
		// Refuse before opening: opening a device can have effects.
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if target, lerr := os.Readlink(path); lerr == nil {
				return nil, &DanglingLinkError{Path: path, Target: target, Err: err}
			}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !allowed(fi.Mode(), pipes) {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	if fi.Mode()&fs.ModeNamedPipe != 0 {
		if err := waitForWriter(f, path, WriterWait); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

func allowed(mode fs.FileMode, pipes bool) bool {
	return mode.IsRegular() || pipes && mode&fs.ModeNamedPipe != 0
}

// ReadAll reads r to its end, failing with a *TooLargeError naming path
// when it holds more than limit bytes.
func ReadAll(r io.Reader, path string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return data, nil
}

// Limited wraps r so that reading more than limit bytes from it fails
// with a *TooLargeError naming path, for readers that stream a file.
func Limited(r io.Reader, path string, limit int64) io.Reader {
	return &limited{r: r, path: path, left: limit, limit: limit}
}

type limited struct {
	r     io.Reader
	path  string
	left  int64
	limit int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, &TooLargeError{Path: l.path, Limit: l.limit}
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n - int(-l.left), &TooLargeError{Path: l.path, Limit: l.limit}
	}
	return n, err
}

// IsNotRegular reports whether err is or wraps a *NotRegularError.
func IsNotRegular(err error) bool {
	var e *NotRegularError
	return errors.As(err, &e)
}

// IsTooLarge reports whether err is or wraps a *TooLargeError.
func IsTooLarge(err error) bool {
	var e *TooLargeError
	return errors.As(err, &e)
}
