// Command library-example checks versions against a constraint with one of
// prerel's policies and selects the version it would install: a program
// that depends on prerel through a replace directive to a clone.
package main

import (
	"fmt"
	"log"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/policies"
)

func main() {
	r := engine.Evaluate(policies.Cargo{}, ">= 1.1.0-beta.2", "1.1.0-beta.3")
	fmt.Println(r.Verdict, r.Reason)

	sel, err := engine.Select(policies.Cargo{}, ">= 1.0.0", []string{"1.0.0", "1.1.0-beta.1"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sel.Version)

	// Every registered policy, native and adapter, by name.
	reg := catalogue.New()
	p, ok := reg.Lookup("hashicorp")
	if !ok {
		log.Fatal("no policy hashicorp")
	}
	fmt.Println(p.Name(), engine.Evaluate(p, "~> 1.2", "2.0.0-beta.1").Verdict)
}
