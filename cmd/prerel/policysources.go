package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/cmdpolicy"
	"github.com/prerel/prerel/internal/elide"
)

// policySources are the flags of every command that takes policies which
// add policies to the registered ones for the run: --policy-file FILE
// (policies written in HCL, or command blocks) and --policy-cmd
// NAME=COMMAND, each repeatable, and --policy-timeout for the commands.
type policySources struct {
	files            []string
	cmds             []cmdpolicy.Named
	env              []string
	allowCredentials bool // --policy-cmd-allow-credentials
	timeout          time.Duration
}

// addPolicySources defines the flags on fs.
func addPolicySources(fs *flagSet) *policySources {
	s := &policySources{}
	stringsVar(fs, &s.files, "policy-file", "FILE", " ", addFile, "a `FILE` of policy blocks to add to the registered policies\n(repeatable); see docs/evaluate.md, 'Designs as data'")
	fs.Var(&listFlag[cmdpolicy.Named]{&s.cmds, "NAME=COMMAND", " ", func(c cmdpolicy.Named) string { return c.Name + "=" + c.Text }, addCommand}, "policy-cmd", "a policy named `NAME=COMMAND`, answered by COMMAND over the eval\nprotocol (repeatable); COMMAND is split into words as a shell does,\nwithout running a shell")
	stringsVar(fs, &s.env, "policy-cmd-env", "NAME", " ", addEnvName, "the `NAME` of a variable of prerel's environment that policy\ncommands get (repeatable); they get PATH, HOME, LANG and TMPDIR,\nand no other variable unless named here. A name, not a pattern\n(no *, ? or [); the name of a credential (TF_TOKEN_*,\nTF_CLI_CONFIG_FILE, TERRAFORM_CONFIG, or a name with TOKEN, SECRET,\nPASSWORD, PASSWD, CREDENTIAL, API_KEY, APIKEY, PRIVATE_KEY or\nACCESS_KEY in it, in any case) only with\n--policy-cmd-allow-credentials")
	fs.BoolVar(&s.allowCredentials, "policy-cmd-allow-credentials", false, "let --policy-cmd-env name credentials: policy commands then get\nthe tokens, secrets or passwords it names")
	durationVar(fs, &s.timeout, "policy-timeout", cmdpolicy.DefaultTimeout, "the `DURATION` a policy command may take to answer one batch\nof cases")
	return s
}

// load registers the policies the flags name (cmdpolicy.Sources.Load)
// on a copy of e.registry, which it makes e's registry, and sets e.ctx,
// which is done as soon as a policy command fails while it judges cases.
// The returned stop must be called when the command's work is done: it
// stops every policy command and returns the first failure of one, nil
// when none failed.
func (s *policySources) load(e *env) (stop func() error, err error) {
	l, err := cmdpolicy.Sources{Files: s.files, Commands: s.cmds, AllowCredentials: s.allowCredentials,
		Options: cmdpolicy.Options{Timeout: s.timeout, Stderr: e.stderr, Env: s.env}}.Load(e.registry)
	if diags := (hcl.Diagnostics)(nil); errors.As(err, &diags) {
		return nil, diagnosticsError(diags)
	} else if err != nil {
		return nil, usage(err)
	}
	e.registry, e.ctx = l.Registry, l.Context
	return l.Close, nil
}

// addFile is the add of --policy-file: a file given twice is refused.
func addFile(l []string, s string) ([]string, error) {
	if slices.Contains(l, s) {
		return nil, fmt.Errorf("%q given twice", s)
	}
	return append(l, s), nil
}

// addEnvName is the add of --policy-cmd-env: the name of a variable that
// policy commands get besides cmdpolicy.BaseEnv, given once or more.
func addEnvName(l []string, s string) ([]string, error) {
	if err := cmdpolicy.CheckEnvName(s); err != nil {
		return nil, err
	}
	if strings.ContainsAny(s, "*?[") {
		return nil, fmt.Errorf("%q is a pattern, and --policy-cmd-env takes the name of one variable: give each name in full, once per variable", elide.Middle(s, 200))
	}
	if !slices.Contains(l, s) {
		l = append(l, s)
	}
	return l, nil
}

// addCommand is the add of --policy-cmd: NAME=COMMAND
// (cmdpolicy.ParseNamed), a name given once.
func addCommand(l []cmdpolicy.Named, s string) ([]cmdpolicy.Named, error) {
	c, err := cmdpolicy.ParseNamed(s)
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(l, func(e cmdpolicy.Named) bool { return e.Name == c.Name }) {
		return nil, fmt.Errorf("policy %q given twice", c.Name)
	}
	return append(l, c), nil
}
