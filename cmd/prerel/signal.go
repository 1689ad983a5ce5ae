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

// writing is held by every write that afterSuccess held back, while it
// writes, and by the handler of a signal from the moment the signal
// arrives: no write starts once prerel is stopping, and prerel does not
// exit in the middle of one.
var writing sync.Mutex

// lockedWrite runs write while it holds writing.
func lockedWrite(write func() error) error {
	writing.Lock()
	defer writing.Unlock()
	return write()
}

// stopOnSignal makes SIGINT and SIGTERM stop prerel: once the write in
// progress, if any, is over, every policy command is killed with what it
// left behind (cmdpolicy.StopAll), and prerel exits with the status of a
// program killed by that signal, 128 and its number (130 for SIGINT, 143
// for SIGTERM), having written nothing more.
func stopOnSignal(stderr io.Writer) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		writing.Lock() // never unlocked: nothing is written after this
		cmdpolicy.StopAll()
		fmt.Fprintf(stderr, "prerel: stopped by %s\n", sig)
		os.Exit(signalStatus(sig))
	}()
}

// signalStatus is the exit status of a program killed by sig.
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + 2
}
