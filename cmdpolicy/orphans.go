package cmdpolicy

import "sync"

// running are the commands that run, of every Policy of the program, for
// StopAll.
var running struct {
	sync.Mutex
	procs map[*process]bool
}

func addRunning(pr *process) {
	running.Lock()
	defer running.Unlock()
	if running.procs == nil {
		running.procs = make(map[*process]bool)
	}
	running.procs[pr] = true
}

func removeRunning(pr *process) {
	running.Lock()
	defer running.Unlock()
	delete(running.procs, pr)
}

// AdoptOrphans makes the calling program, on Linux, the reaper of the
// orphans among its descendants (prctl PR_SET_CHILD_SUBREAPER): a process
// that a command starts, leaves the command's process group (by setsid,
// say) and outlives the command becomes the program's child instead of
// init's, so that StopAll finds it and stops it. It changes the whole
// program, whose every orphaned descendant it adopts: call it from main,
// in a program such as prerel whose only children are its policy
// commands. Elsewhere it returns errors.ErrUnsupported.
func AdoptOrphans() error { return adoptOrphans() }

// StopAll kills the process group of every command that a Policy of the
// program runs, and, after AdoptOrphans, every child of the program and
// what they started, round after round until none is left (bounded to
// about five seconds). A Policy whose command it kills fails. Call it
// when the program is about to exit, normally or on a signal, and not
// before: it kills every child of the program.
func StopAll() {
	running.Lock()
	for pr := range running.procs {
		killGroup(pr.cmd)
	}
	running.Unlock()
	killAdopted()
}
