package safefile

import (
	"io/fs"
	"os"
)

// pendingFile writes target in place: github.com/google/renameio, which
// writes through a temporary file, has no Windows version, so a write
// there is not atomic.
type pendingFile struct{ *os.File }

func (f pendingFile) Cleanup() error                { return f.Close() }
func (f pendingFile) CloseAtomicallyReplace() error { return f.Close() }

func createPending(target string, old fs.FileInfo, perm fs.FileMode) (pendingFile, error) {
	if perm == 0 {
		perm = 0o666
	}
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	return pendingFile{f}, err
}
