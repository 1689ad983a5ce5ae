package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/prerel/prerel/cmdpolicy"
)

// writing is held by every write of a command's output (output.writes)
// while it writes, and by the handler of a signal from the moment the
// signal arrives: no write starts once prerel is stopping, and prerel
// does not exit in the middle of one.
var writing sync.Mutex

// lockedWrite runs write while it holds writing.
func lockedWrite(write func() error) error {
	writing.Lock()
	defer writing.Unlock()
	return write()
}

// stopOnSignal makes SIGINT and SIGTERM stop prerel, until the returned
// function is called: once the write in progress, if any, is over, every
// policy command is killed with what it left behind (cmdpolicy.StopAll),
// and prerel exits with the status of a program killed by that signal,
// 128 and its number (130 for SIGINT, 143 for SIGTERM), having written
// nothing more. The commands that take policies run under it; prerel
// serve has its own handling, which shuts the server down.
func stopOnSignal(stderr io.Writer) (stop func()) {
	sigs := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-sigs:
			writing.Lock() // never unlocked: nothing is written after this
			cmdpolicy.StopAll()
			fmt.Fprintf(stderr, "prerel: stopped by %s: the policy commands are stopped, and nothing more is written\n", signalName(sig))
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
