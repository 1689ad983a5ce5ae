//go:build !windows

package safefile

import (
	"io/fs"
	"path/filepath"
	"syscall"

	"github.com/google/renameio/v2"
)

// createPending creates the temporary file that replaces target, in
// target's directory, with the mode (and owner, where allowed) of old
// when perm is zero and old exists, 0666 less the umask for a new file,
// or perm.
func createPending(target string, old fs.FileInfo, perm fs.FileMode) (*renameio.PendingFile, error) {
	opts := []renameio.Option{renameio.WithTempDir(filepath.Dir(target)), renameio.WithPermissions(0o666)}
	switch {
	case perm != 0:
		opts = append(opts, renameio.WithStaticPermissions(perm))
	case old != nil:
		opts = append(opts, renameio.WithStaticPermissions(old.Mode().Perm()))
	}
	f, err := renameio.NewPendingFile(target, opts...)
	if err != nil {
		return nil, err
	}
	if old != nil && perm == 0 {
		if st, ok := old.Sys().(*syscall.Stat_t); ok {
			f.Chown(int(st.Uid), int(st.Gid)) // keep the owner where allowed
		}
	}
	return f, nil
}
