package cmdpolicy

import (
	"bytes"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// dieWithParent has the kernel kill the command when prerel dies, even by
// SIGKILL (PR_SET_PDEATHSIG). The kernel sends the signal when the thread
// that started the command ends; Go ends a thread only when a goroutine
// locked to it (runtime.LockOSThread) returns without unlocking it, which
// prerel never does.
func dieWithParent(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER of prctl(2).
const prSetChildSubreaper = 36

// adopting is set once AdoptOrphans has made the process a subreaper.
var adopting atomic.Bool

func adoptOrphans() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return os.NewSyscallError("prctl(PR_SET_CHILD_SUBREAPER)", errno)
	}
	adopting.Store(true)
	return nil
}

// Bounds of killAdopted: the rounds it makes, each a kill of every child
// and a pause for their exits, so that a process that keeps forking
// cannot keep it busy for long.
const (
	adoptedRounds = 500
	adoptedPause  = 10 * time.Millisecond
)

// killAdopted kills every child of the process, round after round: each
// child killed hands its own children to the process (a subreaper), to
// be killed in the next round, until none is left. It reaps them too.
func killAdopted() {
	if !adopting.Load() {
		return
	}
	self := os.Getpid()
	for range adoptedRounds {
		if !hasChildren() {
			return // most runs start no process: no scan of /proc
		}
		kids := children(self)
		if len(kids) == 0 {
			return
		}
		for _, pid := range kids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(adoptedPause)
		for _, pid := range kids {
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
		}
	}
}

// hasChildren reports whether the process has a child, running or
// exited and not yet reaped, without reaping any (waitid with WNOWAIT):
// one system call where children reads every process of /proc. It
// answers true when it cannot tell.
func hasChildren() bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err != unix.ECHILD
		}
	}
}

// children lists the processes whose parent is pid, from /proc.
func children(pid int) []int {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer dir.Close()
	names, _ := dir.Readdirnames(-1)
	var kids []int
	for _, name := range names {
		n, err := strconv.Atoi(name)
		if err != nil || n == pid {
			continue
		}
		if ppid, ok := parentOf(n); ok && ppid == pid {
			kids = append(kids, n)
		}
	}
	return kids
}

// parentOf reads the parent of process pid from /proc/PID/stat: the
// fourth field, the second after the command name in parentheses (which
// may hold spaces and parentheses itself).
func parentOf(pid int) (int, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(fields[1]))
	return ppid, err == nil
}
