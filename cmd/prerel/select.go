package main

import (
	"errors"
	"fmt"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/lines"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/report"
)

// selectCommand is prerel select.
var selectCommand = command{
	name:    "select",
	args:    "[flags] CONSTRAINT [VERSION...]",
	summary: "the version each policy would install",
	help: `Show the version each policy would install from the available versions:
the newest it admits, or none. The text report shows at most 10 notes, each
naming 2 versions; --format json keeps every note, and html is a page with a
timeline of the verdicts and selections. With --min-age, a version may
carry its publication date after "@" (1.1.0@2026-02-27T12:00:00Z): each
policy decides on the whole list, then the versions younger than the
minimum age are held back.`,
	policySources: true,
	flags: func(fs *flagSet) runFunc {
		names := addPolicies(fs)
		versionsFile := addVersionsFile(fs)
		format := addFormat(fs, report.SelectFormats)
		showAll := addShowAll(fs)
		cool := addCooldownFlags(fs)
		return func(e *env, args []string) (output, error) {
			if len(args) < 1 {
				return output{}, usagef("select needs a constraint")
			}
			if cool.minAge.set && cool.minAge.d > 0 { // a cooldown (cooldown.go)
				return selectCooled(e, cool, *names, args[0], args[1:], *versionsFile, format.value, *showAll)
			}
			// Versions given as arguments must parse; a file's versions are
			// judged as they are, and each policy reports the ones it
			// cannot read.
			constraint, versions, err := gatherVersions(args, *versionsFile)
			if err != nil {
				return output{}, err
			}
			if len(versions) == 0 {
				return output{}, usagef("select needs versions: as arguments or with --versions-file")
			}
			ps, err := e.resolve(*names)
			if err != nil {
				return output{}, err
			}
			s := report.Selection{Report: report.NewSelectReport(ps, constraint, versions)}
			if format.value == report.HTML {
				s.Verdicts = report.NewCheckReport(ps, constraint, versions)
			}
			return rendered(report.Select, format.value, s, renderOptions(*showAll), nil), nil
		}
	},
}

// addVersionsFile defines --versions-file, of check and select.
func addVersionsFile(fs *flagSet) *string {
	return fs.String("versions-file", "", "also read versions from `FILE`, one a line (blank lines and lines\nstarting with # are skipped; they are judged as they are)")
}

// gatherVersions returns the constraint, args[0], and the versions: those
// given as arguments after it, which must parse (engine.CheckParses, with the
// constraint), then those of file when one is named, which are judged as
// they are. A file that lists no versions is an error.
func gatherVersions(args []string, file string) (constraint string, versions []string, err error) {
	constraint, versions = args[0], args[1:]
	if err := usage(engine.CheckParses(constraint, versions)); err != nil {
		return "", nil, err
	}
	if file == "" {
		return constraint, versions, nil
	}
	more, err := readVersionsFile(file)
	if err != nil {
		return "", nil, err
	}
	if len(more) == 0 {
		return "", nil, usagef("the versions file %s lists no versions", file)
	}
	return constraint, append(versions, more...), nil
}

// readVersionsFile reads one version a line (lines.ReadList): blank
// lines and # comments are skipped, surrounding spaces trimmed; a
// regular file or a pipe of at most safefile.ListLimit bytes, or the
// null device.
func readVersionsFile(path string) ([]string, error) {
	out, err := lines.ReadList(path, safefile.ListLimit)
	if long := (*lines.LongLineError)(nil); errors.As(err, &long) {
		return nil, usagef("versions file: %v", err)
	} else if err != nil {
		return nil, inputError(fmt.Errorf("versions file: %w", err))
	}
	return out, nil
}
