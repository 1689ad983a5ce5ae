//go:build !js

package safefile

import "syscall"

// openNonblock is the flag that keeps Open from blocking on a FIFO.
const openNonblock = syscall.O_NONBLOCK
