package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Append appends data to the file at path, a regular file or none yet,
// which it then creates. Anything else (a directory, a FIFO, a device) is
// refused, also when it is swapped in after the check: the file is
// opened without blocking, and checked again once open. An error is the
// bare cause (not a *fs.PathError), for a message that names the file in
// its own words.
func Append(path string, data []byte) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("it is %s, not a regular file", Kind(fi.Mode()))
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY|openNonblock, 0o666)
	if err != nil {
		return bare(err)
	}
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("it is %s, not a regular file", Kind(fi.Mode()))
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return bare(err)
	}
	return bare(f.Close())
}

// bare is err without the *fs.PathError around it.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
