package main

import "sync"

// writing is held by every write of a command's output (output.writes)
// while it writes, and by the handler of a signal from the moment the
// signal arrives (cmdpolicy.StopOnSignal, which the commands that take
// policies run under): no write starts once prerel is stopping, and
// prerel does not exit in the middle of one.
var writing sync.Mutex

// lockedWrite runs write while it holds writing.
func lockedWrite(write func() error) error {
	writing.Lock()
	defer writing.Unlock()
	return write()
}
