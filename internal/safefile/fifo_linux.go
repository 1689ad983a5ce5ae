package safefile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// waitForWriter waits until the FIFO f, opened without blocking, has had
// a writer: until it holds data or a writer opened and closed it. It
// fails with a *NoWriterError when none came within wait.
func waitForWriter(f *os.File, path string, wait time.Duration) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	deadline := time.Now().Add(wait)
	var perr error
	err = rc.Control(func(fd uintptr) {
		for {
			left := time.Until(deadline)
			if left <= 0 {
				perr = &NoWriterError{Path: path, Wait: wait}
				return
			}
			// Linux reports no hang-up on a FIFO opened without a
			// writer until a writer came and went, so that poll waits
			// for the writer as a blocking open would.
			fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			n, err := unix.Poll(fds, int(min(left, time.Second)/time.Millisecond)+1)
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if err != nil {
				perr = err
				return
			}
			if n > 0 {
				return
			}
		}
	})
	if err != nil {
		return err
	}
	return perr
}
