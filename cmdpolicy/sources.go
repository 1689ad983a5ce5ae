package cmdpolicy

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/printable"
)

// Sources are the policies a run adds to the registered ones, as
// prerel's --policy-file, --policy-cmd and --policy-cmd-env give them:
// files of policy blocks written in HCL (package hclpolicy), whose
// command blocks are policies of this package run in the file's
// directory, and commands named one by one. Errors name those flags.
type Sources struct {
	// Files are the files of policy blocks, in order.
	Files []string
	// Commands are the named commands, in order.
	Commands []Named
	// AllowCredentials lets Options.Env name credentials
	// (CredentialName), which Load refuses otherwise.
	AllowCredentials bool
	// Options are those of every command; Load sets OnFailure, and Dir
	// for the commands of a file.
	Options Options
}

// Named is a command with the name of its policy, as ParseNamed reads
// NAME=COMMAND: Text is the COMMAND as written, Argv its words.
type Named struct {
	Name, Text string
	Argv       []string
}

// ParseNamed reads NAME=COMMAND, the command split by SplitCommand; an
// empty name or command is an error.
func ParseNamed(s string) (Named, error) {
	name, text, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Named{}, fmt.Errorf("expected NAME=COMMAND, got %q", s)
	}
	argv, err := SplitCommand(text)
	if err != nil {
		return Named{}, fmt.Errorf("%s: %w", name, err)
	}
	if len(argv) == 0 {
		return Named{}, fmt.Errorf("%s: the command is empty", name)
	}
	return Named{name, text, argv}, nil
}

// Loaded is what Load made: the registry of the run and its commands.
type Loaded struct {
	// Registry holds the registered policies, then those of the
	// sources; it is the registry given to Load when they name none.
	Registry *engine.Registry
	// Context is done as soon as a command fails while it judges cases
	// (Options.OnFailure), and once Close is called.
	Context context.Context
	cmds    []*Policy
	cancel  context.CancelFunc
}

// Close stops every command and returns the first failure of one (a
// command that exited, hung or answered out of turn), nil when none
// failed. It must be called when the run's work is done.
func (l *Loaded) Close() error {
	defer l.cancel()
	var failed error
	for _, c := range l.cmds {
		if err := c.Close(); err != nil && failed == nil {
			failed = err
		}
	}
	return failed
}

// Load registers the policies of s on a copy of reg: first those of each
// file, then each command, refusing a file given twice (by another name
// too), a name already registered, and a credential in Options.Env
// without AllowCredentials. The errors of a file are hcl.Diagnostics.
// When Load fails, the commands it made are stopped.
func (s Sources) Load(reg *engine.Registry) (*Loaded, error) {
	ctx, cancel := context.WithCancel(context.Background())
	l := &Loaded{Registry: reg, Context: ctx, cancel: cancel}
	s.Options.OnFailure = func(error) { cancel() }
	if err := s.load(l); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// load is Load once l is made.
func (s Sources) load(l *Loaded) error {
	if err := s.checkEnv(); err != nil || len(s.Files) == 0 && len(s.Commands) == 0 {
		return err
	}
	reg := engine.NewRegistry()
	for _, p := range l.Registry.All() {
		if err := reg.Register(p); err != nil {
			return err
		}
	}
	for i, file := range s.Files {
		for _, earlier := range s.Files[:i] {
			if sameFile(file, earlier) {
				return fmt.Errorf("--policy-file %s: the file %s is already given", file, earlier)
			}
		}
		ps, diags := hclpolicy.Load(file, hclpolicy.Options{Command: s.command(filepath.Dir(file), &l.cmds)})
		if !diags.HasErrors() {
			diags = append(diags, hclpolicy.CheckNames(ps, reg)...)
		}
		if diags.HasErrors() {
			return diags
		}
		for _, p := range ps {
			if err := reg.Register(p); err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
		}
	}
	for _, c := range s.Commands {
		p, err := New(c.Name, c.Argv, s.Options)
		if err != nil {
			return fmt.Errorf("--policy-cmd %s: %w", c.Name, err)
		}
		l.cmds = append(l.cmds, p)
		if _, taken := reg.Lookup(c.Name); taken {
			return fmt.Errorf("--policy-cmd %s: a policy named %q is already registered", c.Name, c.Name)
		}
		if err := reg.Register(p); err != nil {
			return fmt.Errorf("--policy-cmd %s: %w", c.Name, err)
		}
	}
	l.Registry = reg
	return nil
}

// command returns the hclpolicy.Options.Command of a policy file in dir:
// a command block's policy, run in the file's directory, so that a
// script next to the file is found by its name. Each policy made is
// added to *cmds, for Close to stop.
func (s Sources) command(dir string, cmds *[]*Policy) func(string, []string, hcl.Range) (engine.Policy, hcl.Diagnostics) {
	return func(name string, argv []string, rng hcl.Range) (engine.Policy, hcl.Diagnostics) {
		opt := s.Options
		opt.Dir = dir
		p, err := New(name, argv, opt)
		if err != nil {
			return nil, hcl.Diagnostics{diag.ErrorAt(&rng, "Invalid policy command", err.Error())}
		}
		*cmds = append(*cmds, p)
		return p, nil
	}
}

// checkEnv refuses a name of Options.Env that names a credential
// without AllowCredentials, in a message that names the variable and
// never gives its value.
func (s Sources) checkEnv() error {
	if s.AllowCredentials {
		return nil
	}
	for _, name := range s.Options.Env {
		if CredentialName(name) {
			return fmt.Errorf("--policy-cmd-env %s: the variable holds a credential (its name says so), which policy commands do not get; "+
				"a rule needs none, but give --policy-cmd-allow-credentials as well to pass it", printable.String(elide.Middle(name, 200)))
		}
	}
	return nil
}

// sameFile reports whether a and b name the same existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
