package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/prerel/prerel/engine"
)

func runSelect(e *env, args []string) error {
	fs := newFlags(e, "select", "[flags] CONSTRAINT [VERSION...]",
		"Show the version each policy would install from the available versions:\n"+
			"the newest it admits, or none.")
	var names policyList
	fs.Var(&names, "policies", "comma-separated policies to run (default: all,\nin 'prerel policies' order)")
	versionsFile := fs.String("versions-file", "", "read the available versions from `FILE`, one a line (blank lines and\nlines starting with # are skipped)")
	format := formatFlag{"text", []string{"text", "json"}}
	fs.Var(&format, "format", "output format: text or json")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 1 {
		return usagef("select needs a constraint")
	}
	constraint, versions := fs.Arg(0), fs.Args()[1:]
	// Versions given as arguments must parse; a file's versions are judged
	// as they are, and each policy reports the ones it cannot read.
	if err := checkArgs(constraint, versions); err != nil {
		return err
	}
	if *versionsFile != "" {
		more, err := readVersionsFile(*versionsFile)
		if err != nil {
			return err
		}
		versions = append(versions, more...)
	}
	if len(versions) == 0 {
		return usagef("select needs versions: as arguments or with --versions-file")
	}
	ps, err := e.resolve(names)
	if err != nil {
		return err
	}
	return render(e.stdout, format.value, engine.NewSelectReport(ps, constraint, versions), writeSelectText)
}

// writeSelectText writes a select report as a table of policies and the
// version each selects, then a note for each refusal and unreadable
// version.
func writeSelectText(w io.Writer, rep engine.SelectReport) error {
	fmt.Fprintf(w, "constraint: %s\navailable:  %d versions\n\n", rep.Constraint, len(rep.Available))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tSELECTS")
	var notes []string
	for _, r := range rep.Policies {
		fmt.Fprintf(tw, "%s\t%s\n", r.Policy, selectsText(r))
		if r.Error != "" {
			notes = append(notes, fmt.Sprintf("%s refuses the constraint: %s", r.Policy, r.Error))
		}
		for _, u := range r.Unreadable {
			notes = append(notes, fmt.Sprintf("%s cannot read %q: %s", r.Policy, u.Version, u.Reason))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
	}
	for _, n := range notes {
		if _, err := fmt.Fprintf(w, "note: %s\n", n); err != nil {
			return err
		}
	}
	return nil
}

// selectsText is the SELECTS cell of a row.
func selectsText(r engine.SelectRow) string {
	switch {
	case r.Error != "":
		return "invalid constraint"
	case r.Selected == nil:
		return "none"
	}
	return *r.Selected
}

// readVersionsFile reads one version a line; blank lines and # comments are
// skipped, surrounding spaces trimmed.
func readVersionsFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, inputError(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	if err := sc.Err(); err != nil {
		return nil, inputError(fmt.Errorf("%s: %w", path, err))
	}
	return out, nil
}
