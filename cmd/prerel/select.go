package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/prerel/prerel/engine"
)

func runSelect(e *env, args []string) error {
	fs := newFlags(e, "select", "[flags] CONSTRAINT [VERSION...]",
		"Show the version each policy would install from the available versions: the newest it admits, or none.")
	var names policyList
	fs.Var(&names, "policies", "comma-separated policies to run (default: all, in 'prerel policies' order)")
	versionsFile := fs.String("versions-file", "", "read the available versions from `FILE`, one a line (blank lines and lines starting with # are skipped)")
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
	type row struct {
		Policy     string              `json:"policy"`
		Selected   *string             `json:"selected"`
		Error      string              `json:"error,omitempty"`
		Unreadable []engine.Unreadable `json:"unreadable,omitempty"`
	}
	rows := make([]row, len(ps))
	for i, p := range ps {
		rows[i].Policy = p.Name()
		sel, err := engine.Select(p, constraint, versions)
		switch {
		case err != nil:
			rows[i].Error = err.Error()
		case sel.Found:
			v := sel.Version
			rows[i].Selected = &v
		}
		rows[i].Unreadable = sel.Unreadable
	}
	if format.value == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Constraint string   `json:"constraint"`
			Available  []string `json:"available"`
			Policies   []row    `json:"policies"`
		}{constraint, versions, rows})
	}
	fmt.Fprintf(e.stdout, "constraint: %s\navailable:  %d versions\n\n", constraint, len(versions))
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tSELECTS")
	var notes []string
	for _, r := range rows {
		switch {
		case r.Error != "":
			fmt.Fprintf(tw, "%s\tinvalid constraint\n", r.Policy)
			notes = append(notes, fmt.Sprintf("%s refuses the constraint: %s", r.Policy, r.Error))
		case r.Selected == nil:
			fmt.Fprintf(tw, "%s\tnone\n", r.Policy)
		default:
			fmt.Fprintf(tw, "%s\t%s\n", r.Policy, *r.Selected)
		}
		for _, u := range r.Unreadable {
			notes = append(notes, fmt.Sprintf("%s cannot read %q: %s", r.Policy, u.Version, u.Reason))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(notes) > 0 {
		fmt.Fprintln(e.stdout)
		for _, n := range notes {
			fmt.Fprintf(e.stdout, "note: %s\n", n)
		}
	}
	return nil
}

// readVersionsFile reads one version a line; blank lines and # comments are
// skipped, surrounding spaces trimmed.
func readVersionsFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usageError{err}
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
		return nil, usagef("%s: %v", path, err)
	}
	return out, nil
}
