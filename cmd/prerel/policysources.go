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
	files            fileList
	cmds             commandList
	env              envList
	allowCredentials bool // --policy-cmd-allow-credentials
	timeout          time.Duration
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

// commandList is the repeatable --policy-cmd flag: NAME=COMMAND
// (cmdpolicy.ParseNamed).
type commandList []cmdpolicy.Named

func (l *commandList) Type() string { return "NAME=COMMAND" }

func (l *commandList) String() string {
	var s []string
	for _, c := range *l {
		s = append(s, c.Name+"="+c.Text)
	}
	return strings.Join(s, " ")
}

func (l *commandList) Set(s string) error {
	c, err := cmdpolicy.ParseNamed(s)
	if err != nil {
		return err
	}
	for _, earlier := range *l {
		if earlier.Name == c.Name {
			return fmt.Errorf("policy %q given twice", c.Name)
		}
	}
	*l = append(*l, c)
	return nil
}
