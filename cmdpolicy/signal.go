package cmdpolicy

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// StopOnSignal makes SIGINT and SIGTERM stop the program, until the
// returned function is called: held is locked, so that the write in
// progress, if any, is over and no other starts (it is never unlocked),
// every command is stopped with what it left behind (StopAll), a line
// after prefix says so on stderr, and the program exits with the status
// of a program killed by that signal, 128 and its number (130 for SIGINT,
// 143 for SIGTERM).
func StopOnSignal(stderr io.Writer, prefix string, held sync.Locker) (stop func()) {
	sigs := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-sigs:
			held.Lock() // never unlocked: nothing is written after this
			StopAll()
			fmt.Fprintf(stderr, "%s: stopped by %s: the policy commands are stopped, and nothing more is written\n", prefix, signalName(sig))
			os.Exit(signalStatus(sig))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}

// signalName is the name of SIGINT or SIGTERM.
func signalName(sig os.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// signalStatus is the exit status of a program killed by sig.
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + 2
}
