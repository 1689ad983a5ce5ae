package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/cmdpolicy"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/printable"
)

// policySources are the flags of every command that takes policies which
// add policies to the registered ones for the run: --policy-file FILE
// (policies written in HCL, or command blocks) and --policy-cmd
// NAME=COMMAND, each repeatable, and --policy-timeout for the commands.
type policySources struct {
	files            fileList
	cmds             commandList
	env              envList
	allowCredentials bool // --policy-cmd-allow-credentials
	timeout          time.Duration
	failed           func(error) // the commands' OnFailure, set by load
}

// addPolicySources defines the flags on fs.
func addPolicySources(fs *flagSet) *policySources {
	s := &policySources{}
	fs.Var(&s.files, "policy-file", "a `FILE` of policy blocks to add to the registered policies\n(repeatable); see docs/evaluate.md, 'Designs as data'")
	fs.Var(&s.cmds, "policy-cmd", "a policy named `NAME=COMMAND`, answered by COMMAND over the eval\nprotocol (repeatable); COMMAND is split into words as a shell does,\nwithout running a shell")
	fs.Var(&s.env, "policy-cmd-env", "the `NAME` of a variable of prerel's environment that policy\ncommands get (repeatable); they get PATH, HOME, LANG and TMPDIR,\nand no other variable unless named here. A name, not a pattern\n(no *, ? or [); the name of a credential (TF_TOKEN_*,\nTF_CLI_CONFIG_FILE, TERRAFORM_CONFIG, or a name with TOKEN, SECRET,\nPASSWORD, PASSWD, CREDENTIAL, API_KEY, APIKEY, PRIVATE_KEY or\nACCESS_KEY in it, in any case) only with\n--policy-cmd-allow-credentials")
	fs.BoolVar(&s.allowCredentials, "policy-cmd-allow-credentials", false, "let --policy-cmd-env name credentials: policy commands then get\nthe tokens, secrets or passwords it names")
	durationVar(fs, &s.timeout, "policy-timeout", cmdpolicy.DefaultTimeout, "the `DURATION` a policy command may take to answer one batch\nof cases")
	return s
}

// load registers the policies the flags name on a copy of e.registry,
// which it makes e's registry, and sets e.ctx, which is done as soon as a
// policy command fails while it judges cases. The returned stop must be
// called when the command's work is done, also when load fails: it stops
// every policy command and returns the first failure of one (a policy
// command that exits, hangs or answers out of turn), nil when none failed.
func (s *policySources) load(e *env) (stop func() error, err error) {
	var cmds []*cmdpolicy.Policy
	ctx, cancel := context.WithCancel(context.Background())
	e.ctx = ctx
	s.failed = func(error) { cancel() }
	stop = func() error {
		defer cancel()
		var failed error
		for _, c := range cmds {
			if cerr := c.Close(); cerr != nil && failed == nil {
				failed = cerr
			}
		}
		return failed
	}
	if err := s.checkEnv(); err != nil {
		return stop, err
	}
	if len(s.files) == 0 && len(s.cmds.pairs) == 0 {
		return stop, nil
	}
	reg := engine.NewRegistry()
	for _, p := range e.registry.All() {
		if err := reg.Register(p); err != nil {
			return stop, err
		}
	}
	for i, file := range s.files {
		for _, earlier := range s.files[:i] {
			if sameFile(file, earlier) {
				return stop, usagef("--policy-file %s: the file %s is already given", file, earlier)
			}
		}
		ps, diags := hclpolicy.Load(file, hclpolicy.Options{Command: s.command(e, filepath.Dir(file), &cmds)})
		if !diags.HasErrors() {
			diags = append(diags, hclpolicy.CheckNames(ps, reg)...)
		}
		if diags.HasErrors() {
			return stop, diagnosticsError(diags)
		}
		for _, p := range ps {
			if err := reg.Register(p); err != nil {
				return stop, usage(fmt.Errorf("%s: %w", file, err))
			}
		}
	}
	for _, c := range s.cmds.pairs {
		p, err := cmdpolicy.New(c.name, c.argv, cmdpolicy.Options{Timeout: s.timeout, Stderr: e.stderr, Env: s.env, OnFailure: s.failed})
		if err != nil {
			return stop, usage(fmt.Errorf("--policy-cmd %s: %w", c.name, err))
		}
		cmds = append(cmds, p)
		if _, taken := reg.Lookup(c.name); taken {
			return stop, usagef("--policy-cmd %s: a policy named %q is already registered", c.name, c.name)
		}
		if err := reg.Register(p); err != nil {
			return stop, usage(fmt.Errorf("--policy-cmd %s: %w", c.name, err))
		}
	}
	e.registry = reg
	return stop, nil
}

// command returns the hclpolicy.Options.Command of a policy file in dir:
// a command block's policy, run in the file's directory, so that a
// script next to the file is found by its name. Each policy made is
// added to *cmds, for finish to stop.
func (s *policySources) command(e *env, dir string, cmds *[]*cmdpolicy.Policy) func(string, []string, hcl.Range) (engine.Policy, hcl.Diagnostics) {
	return func(name string, argv []string, rng hcl.Range) (engine.Policy, hcl.Diagnostics) {
		p, err := cmdpolicy.New(name, argv, cmdpolicy.Options{Timeout: s.timeout, Stderr: e.stderr, Env: s.env, OnFailure: s.failed, Dir: dir})
		if err != nil {
			return nil, hcl.Diagnostics{diag.ErrorAt(&rng, "Invalid policy command", err.Error())}
		}
		*cmds = append(*cmds, p)
		return p, nil
	}
}

// checkEnv refuses a --policy-cmd-env that names a credential
// (cmdpolicy.CredentialName) without --policy-cmd-allow-credentials, in
// a message that names the variable and never gives its value.
func (s *policySources) checkEnv() error {
	if s.allowCredentials {
		return nil
	}
	for _, name := range s.env {
		if cmdpolicy.CredentialName(name) {
			return usagef("--policy-cmd-env %s: the variable holds a credential (its name says so), which policy commands do not get; "+
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

// fileList is a repeatable flag of file names; a file given twice is
// refused.
type fileList []string

func (l *fileList) String() string { return strings.Join(*l, " ") }

func (l *fileList) Type() string { return "FILE" }

func (l *fileList) Set(s string) error {
	if slices.Contains(*l, s) {
		return fmt.Errorf("%q given twice", s)
	}
	*l = append(*l, s)
	return nil
}

// envList is the repeatable --policy-cmd-env flag: the names of the
// variables that policy commands get besides cmdpolicy.BaseEnv.
type envList []string

func (l *envList) String() string { return strings.Join(*l, " ") }

func (l *envList) Type() string { return "NAME" }

func (l *envList) Set(s string) error {
	if err := cmdpolicy.CheckEnvName(s); err != nil {
		return err
	}
	if strings.ContainsAny(s, "*?[") {
		return fmt.Errorf("%q is a pattern, and --policy-cmd-env takes the name of one variable: give each name in full, once per variable", elide.Middle(s, 200))
	}
	if !slices.Contains(*l, s) {
		*l = append(*l, s)
	}
	return nil
}

// commandList is the repeatable --policy-cmd flag: NAME=COMMAND.
type commandList struct{ pairs []namedCommand }

type namedCommand struct {
	name, text string
	argv       []string
}

func (l *commandList) Type() string { return "NAME=COMMAND" }

func (l *commandList) String() string {
	var s []string
	for _, c := range l.pairs {
		s = append(s, c.name+"="+c.text)
	}
	return strings.Join(s, " ")
}

func (l *commandList) Set(s string) error {
	name, text, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("expected NAME=COMMAND, got %q", s)
	}
	argv, err := cmdpolicy.SplitCommand(text)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(argv) == 0 {
		return fmt.Errorf("%s: the command is empty", name)
	}
	for _, c := range l.pairs {
		if c.name == name {
			return fmt.Errorf("policy %q given twice", name)
		}
	}
	l.pairs = append(l.pairs, namedCommand{name, text, argv})
	return nil
}
