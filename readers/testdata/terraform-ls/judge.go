// Command judge runs terraform-ls's own registry client over lists of
// versions: it is added by prerel's proof to a temporary copy of
// terraform-ls's module tree (as internal/prereljudge/main.go, beside
// transport.go in internal/registry) and built there, so that
// (registry.Client).GetMatchingModuleVersion and GetModuleVersions run as
// terraform-ls ships them, with the go-version its go.mod resolves.
//
// Input, one JSON array a line: [constraint, version, ...]. The versions
// are the registry's /versions answer, in list order. Output, one JSON
// object a line: "v", a letter a version, and "sel", the index of the
// version GetMatchingModuleVersion returns for the whole list (-1 when it
// finds none).
//
// The constraint is handed over as terraform-schema's early decoder
// (earlydecoder/load_module.go, the module block) hands it: version.NewConstraint
// of the version argument, or no constraint at all (nil) when the argument
// is empty or NewConstraint refuses it. terraform-schema's module is not
// served by the module proxy here, so these few lines stand in for it.
//
// A version's letter is what GetMatchingModuleVersion returns for a list
// of that version alone: a (it returns it), r (no suitable version), or i
// when version.NewVersion refuses it, which GetModuleVersions drops.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/hashicorp/go-version"
	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/hashicorp/terraform-ls/internal/registry"
)

// listing answers every request with the /versions body of the current
// list.
type listing struct{ body []byte }

func (l *listing) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.URL.Path, "/versions") {
		return nil, fmt.Errorf("unexpected request %s", req.URL)
	}
	return &http.Response{
		StatusCode: 200,
		Header:     http.Header{"Content-Type": {"application/json"}},
		Body:       io.NopCloser(bytes.NewReader(l.body)),
		Request:    req,
	}, nil
}

func (l *listing) set(versions []string) {
	type entry struct {
		Version string `json:"version"`
	}
	entries := make([]entry, len(versions))
	for i, v := range versions {
		entries[i].Version = v
	}
	body, err := json.Marshal(map[string]any{"modules": []any{map[string]any{"versions": entries}}})
	if err != nil {
		panic(err)
	}
	l.body = body
}

func main() {
	addr, err := tfaddr.ParseModuleSource("registry.terraform.io/prerel/judge/aws")
	if err != nil {
		panic(err)
	}
	l := &listing{}
	client := registry.PrerelClient(l)
	ctx := context.Background()
	selected := func(cons version.Constraints, versions []string) int {
		l.set(versions)
		v, err := client.GetMatchingModuleVersion(ctx, addr, cons)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "no suitable version found") {
				fmt.Fprintln(os.Stderr, "judge:", err)
				os.Exit(2)
			}
			return -1
		}
		for i, text := range versions {
			if text == v.Original() {
				return i
			}
		}
		fmt.Fprintf(os.Stderr, "judge: %q is not in the list\n", v.Original())
		os.Exit(2)
		return -1
	}

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		var row []string
		if err := json.Unmarshal(in.Bytes(), &row); err != nil || len(row) == 0 {
			fmt.Fprintln(os.Stderr, "judge: bad input line:", err)
			os.Exit(2)
		}
		// terraform-schema's early decoder, module block.
		var cons version.Constraints
		if row[0] != "" {
			if vc, err := version.NewConstraint(row[0]); err == nil {
				cons = vc
			}
		}
		versions := row[1:]
		letters := make([]byte, len(versions))
		for i, text := range versions {
			switch {
			case selected(cons, versions[i:i+1]) == 0:
				letters[i] = 'a'
			default:
				if _, err := version.NewVersion(text); err != nil {
					letters[i] = 'i'
				} else {
					letters[i] = 'r'
				}
			}
		}
		if err := enc.Encode(map[string]any{"v": string(letters), "sel": selected(cons, versions)}); err != nil {
			fmt.Fprintln(os.Stderr, "judge:", err)
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "judge:", err)
		os.Exit(2)
	}
}
