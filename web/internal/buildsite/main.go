// Command buildsite writes the playground's static site with web.Build:
//
//	go run ./web/internal/buildsite [-o DIR]
//
// run in the module's source; DIR is web/dist by default. web/build.sh
// runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/prerel/prerel/web"
)

func main() {
	out := flag.String("o", "web/dist", "the `DIR` to write the site to")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: go run ./web/internal/buildsite [-o DIR]\n\nWrite prerel's playground, a static site, to DIR.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := web.Build(ctx, *out, web.BuildOptions{}); err != nil {
		fmt.Fprintf(os.Stderr, "buildsite: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("wrote the playground to %s: serve that directory from any static host\n", *out)
}
