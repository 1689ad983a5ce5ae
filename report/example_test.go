package report_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/report"
)

// A check report judges versions against one constraint with several
// policies: the JSON form of "prerel check".
func ExampleNewCheckReport() {
	ps, err := catalogue.New().Resolve([]string{"strict", "linear"})
	if err != nil {
		panic(err)
	}
	rep := report.NewCheckReport(ps, "~> 1.2", []string{"1.2.5", "1.3.0-beta.1", "2.0.0"})
	for _, row := range rep.Versions {
		fmt.Print(row.Version, ":")
		for _, r := range row.Results {
			fmt.Printf(" %s %s", r.Policy, r.Verdict)
		}
		fmt.Println()
	}
	// Output:
	// 1.2.5: strict allow linear allow
	// 1.3.0-beta.1: strict reject linear allow
	// 2.0.0: strict reject linear reject
}

// A select report is what each policy would install from a list of
// versions: the JSON form of "prerel select".
func ExampleNewSelectReport() {
	ps, err := catalogue.New().Resolve([]string{"strict", "linear"})
	if err != nil {
		panic(err)
	}
	rep := report.NewSelectReport(ps, "~> 1.2", []string{"1.2.5", "1.3.0-beta.1"})
	enc := json.NewEncoder(os.Stdout)
	for _, row := range rep.Policies {
		if err := enc.Encode(row); err != nil {
			panic(err)
		}
	}
	// Output:
	// {"policy":"strict","selected":"1.2.5"}
	// {"policy":"linear","selected":"1.3.0-beta.1"}
}
