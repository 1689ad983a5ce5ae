// Command masterminds331 judges Terraform constraints as
// terraform-module-versions does by default, with the real
// github.com/Masterminds/semver/v3 at v3.3.1, the version
// keilerkonzept/terraform-module-versions pins in its go.mod.
//
// Input, one JSON array a line: [constraint, version, ...]. Output, one
// line each: a letter a version (a allow, r reject, i invalid: NewConstraint
// refuses the constraint or NewVersion the version). As Client.Update in
// pkg/update/updates.go does without -pre-release, a prerelease is
// dropped (r) before Constraints.Check is asked.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/Masterminds/semver/v3"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var row []string
		if err := json.Unmarshal(in.Bytes(), &row); err != nil || len(row) == 0 {
			fmt.Fprintln(os.Stderr, "masterminds331: bad input line:", err)
			os.Exit(2)
		}
		c, cerr := semver.NewConstraint(row[0])
		letters := make([]byte, 0, len(row)-1)
		for _, text := range row[1:] {
			v, err := semver.NewVersion(text)
			switch {
			case cerr != nil || err != nil:
				letters = append(letters, 'i')
			case v.Prerelease() != "":
				letters = append(letters, 'r')
			case c.Check(v):
				letters = append(letters, 'a')
			default:
				letters = append(letters, 'r')
			}
		}
		out.Write(letters)
		out.WriteByte('\n')
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "masterminds331:", err)
		os.Exit(2)
	}
}
