package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/prerel/prerel/report"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
)

// pinCommand is prerel pin.
var pinCommand = command{
	name:    "pin",
	args:    "[flags] DIR",
	summary: "override files that make init install what the chosen policies select",
	help: `Write the override files (` + pin.FileName + `) that make terraform init and
tofu init install, for each module call and provider of the configuration
rooted at DIR, what its chosen policy selects where that is not what today's
installer selects. DIR is read as resolve reads it, with the same flags, and
without the files prerel pin wrote. A module call is pinned next to the call
with the bare selected version; a provider in the root module, with its
source, version and configuration_aliases, when every module's constraint
admits the pin. The report leads with what init installs now that it did
not before, then what cannot be pinned and why.

prerel only writes and removes files that start with its own header: a file
it did not write is never touched, nor is a symbolic link, nor a file outside
the Git repository that holds DIR (or outside DIR, when it is in none) unless
--allow-outside is given. Every file is written to a temporary file first and
renamed into place only when all are written: a failure leaves the tree as it
was, or names the files it could not restore.

--check writes nothing and exits 1 when the files on disk are not what pin
would write; --remove deletes prerel's files; --update-lock removes from the
lock file the provider entries that keep init from installing a pin (or else
run terraform init -upgrade).
Exit status 1 also when some item has no admissible version; 3 when some
versions could not be listed, and then nothing is written.`,
	policySources: true,
	flags:         pinCommandFlags,
}

// pinCommandFlags defines the flags of prerel pin and returns its run.
func pinCommandFlags(fs *flagSet) runFunc {
	f := addTreeFlags(fs)
	check := fs.Bool("check", false, "write nothing; exit 1, showing the difference, when the override files\non disk are not what pin would write (for CI)")
	remove := fs.Bool("remove", false, "remove the override files prerel wrote, and only those")
	dryRun := fs.Bool("dry-run", false, "write nothing; print the files pin would write")
	updateLock := fs.Bool("update-lock", false, "also remove from the lock file exactly the provider entries that\nmust change for init to install the pins")
	allowOutside := fs.Bool("allow-outside", false, "write and remove override files in module directories outside the Git\nrepository that holds DIR (outside DIR when it is in none)")
	format := addFormat(fs, pin.CheckFormats)
	return func(e *env, args []string) (output, error) {
		if err := checkPinModes(format.value, *check, *remove, *dryRun, *updateLock, args); err != nil {
			return output{}, err
		}
		dir := args[0]
		if *remove {
			return pinRemove(e, f, dir, format.value, *allowOutside, *updateLock)
		}
		rep, err := f.resolve(e, dir, pin.Skip)
		if err != nil {
			return output{}, err
		}
		// An outside failure (versions not listed) is reported before
		// anything is written: a plan without those items would remove
		// their pins. What pin would write is not known: a check fails,
		// and says why first.
		outcome := reportOutcome(rep.Outcome(false))
		if exitStatus(outcome) == exitFailure && !*check {
			return output{}, outcome
		} else if exitStatus(outcome) == exitFailure {
			only := pin.RenderOptions{Checked: true, Failures: pin.CheckFailures(rep), Only: true, Report: rep}
			return rendered(pin.Render, format.value, &pin.Plan{Dir: dir}, only, outcome), nil
		}
		// The plan is built on the tree the report was resolved from.
		plan, err := pin.Build(rep, nil, pin.Options{Policies: e.registry, AllowOutside: *allowOutside})
		if err != nil {
			return output{}, failure(err)
		}
		ropts := pin.RenderOptions{Contents: *dryRun}
		switch {
		case *check:
			return pinCheck(plan, rep, format.value, outcome)
		case *dryRun:
			return rendered(pin.Render, format.value, plan, ropts, outcome), nil
		}
		// The files are written, and the report of what was written
		// printed, once the run has succeeded.
		write := func() error {
			if err := pin.Write(plan, pin.WriteOptions{Unlock: *updateLock, AllowOutside: *allowOutside}); err != nil {
				return failure(err)
			}
			ropts.Unlocked = *updateLock
			return failure(pin.Render(e.stdout, format.value, plan, ropts))
		}
		return output{writes: []func() error{write}, outcome: outcome}, nil
	}
}

// checkPinModes refuses the flags of pin that do not go together, and
// arguments other than one directory.
func checkPinModes(format report.Format, check, remove, dryRun, updateLock bool, args []string) error {
	if !check && !pin.Formats.Has(format) {
		return usagef("--format %s is for --check only: the findings of a check, for code scanning", format)
	}
	if len(args) != 1 {
		return usagef("pin needs exactly one root module directory, got %d arguments", len(args))
	}
	var modes []string
	for _, m := range []struct {
		on   bool
		name string
	}{{check, "--check"}, {remove, "--remove"}, {dryRun, "--dry-run"}} {
		if m.on {
			modes = append(modes, m.name)
		}
	}
	if len(modes) > 1 {
		return usagef("%s cannot be used together", strings.Join(modes, " and "))
	}
	if updateLock && check {
		return usagef("--update-lock cannot be used with --check")
	}
	return nil
}

// pinCheck is pin --check: the report of plan against the files on disk,
// and a finding when they differ, with outcome, that of the resolution.
func pinCheck(plan *pin.Plan, rep *resolve.Report, format report.Format, outcome error) (output, error) {
	diffs, err := pin.Check(plan)
	if err != nil {
		return output{}, failure(err)
	}
	if len(diffs) > 0 {
		drift := finding(fmt.Errorf("%s not what prerel pin would write: run prerel pin %s",
			plural.Of(len(diffs), "override file is", "override files are"), printable.String(plan.Dir)))
		outcome = errors.Join(drift, outcome)
	}
	ropts := pin.RenderOptions{Checked: true, Differences: diffs, Failures: pin.CheckFailures(rep)}
	return rendered(pin.Render, format, plan, ropts, outcome), nil
}

// pinRemove removes the override files prerel wrote in the local module
// directories of the tree rooted at dir, and reports them with what init
// keeps installed until -upgrade. It reads the tree only: no versions
// are listed. With unlock, the lock file blocks of the providers the
// files pinned go too.
func pinRemove(e *env, f *resolveFlags, dir string, format report.Format, allowOutside, unlock bool) (output, error) {
	if err := f.check(dir); err != nil {
		return output{}, err
	}
	p, tree, locks, err := pin.PlanRemoval(dir, f.modulesDir, f.lockFile)
	if diags := (hcl.Diagnostics)(nil); errors.As(err, &diags) {
		return output{}, diagnosticsError(diags)
	} else if err != nil {
		return output{}, inputError(err)
	}
	// The files are removed once the run has succeeded, as they are
	// written.
	remove := func() error {
		removal, err := pin.Remove(p, pin.WriteOptions{AllowOutside: allowOutside, Unlock: unlock})
		if err != nil {
			return failure(err)
		}
		check, _ := e.registry.Lookup(pin.KeepPolicy)
		return failure(pin.RenderRemoval(e.stdout, format, removal, pin.Kept(tree, locks, removal, check)))
	}
	return output{writes: []func() error{remove}}, nil
}
