//go:build unix && !linux

package cmdpolicy

import "syscall"

// dieWithParent does nothing: only Linux kills a child when its parent
// dies.
func dieWithParent(attr *syscall.SysProcAttr) {}
