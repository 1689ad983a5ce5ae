// Command judge runs tfupdate's own code over lists of versions: it is
// added by prerel's proof to a temporary copy of tfupdate's module tree
// (as cmd/prereljudge/main.go) and built there, so that release.Latest
// (release/release.go, with release/version.go's sorting and filtering)
// and the module updater (tfupdate.UpdateFileOrDir with a "module"
// option) run as tfupdate ships them, with the go-version its go.mod
// pins.
//
// Input, one JSON array a line: [constraint, version, ...]. The versions
// are what a Release's ListReleases answers, in list order (the registry
// source, release.TFRegistryModuleRelease, hands them over as the
// registry lists them). Output, one JSON object a line:
//
//   - "v": a letter a version, what release.Latest answers for a list of
//     that version alone: a (it is the latest release), r (no releases
//     found, while release.List with prereleases lists it), i (neither:
//     version.NewVersion refuses it and toVersions drops it);
//   - "sel": what release.Latest answers for the whole list, or null;
//   - "written": when Latest found one, the version argument of a module
//     call whose version argument was the constraint, after
//     `tfupdate module prerel/judge/aws -v LATEST main.tf` ran on it (null
//     when the call has no version argument: the empty constraint);
//   - "err": the updater's error, if it failed.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/spf13/afero"
	"github.com/zclconf/go-cty/cty"

	"github.com/minamijoyo/tfupdate/release"
	"github.com/minamijoyo/tfupdate/tfregistry"
	"github.com/minamijoyo/tfupdate/tfupdate"
)

// listed is a Release that lists the given versions.
type listed []string

func (l listed) ListReleases(context.Context) ([]string, error) { return l, nil }

const module = "prerel/judge/aws"

// update writes a module call with the constraint as its version
// argument (none for the empty constraint), runs tfupdate's module
// updater with version latest on it, and returns the version argument
// afterwards.
func update(ctx context.Context, constraint, latest string) (written *string, err error) {
	f := hclwrite.NewEmptyFile()
	body := f.Body().AppendNewBlock("module", []string{"m"}).Body()
	body.SetAttributeValue("source", cty.StringVal(module))
	if constraint != "" {
		body.SetAttributeValue("version", cty.StringVal(constraint))
	}
	fs := afero.NewMemMapFs()
	if err := afero.WriteFile(fs, "main.tf", f.Bytes(), 0o644); err != nil {
		return nil, err
	}
	option, err := tfupdate.NewOption("module", module, latest, []string{}, false, []string{}, "full", tfregistry.Config{})
	if err != nil {
		return nil, err
	}
	gc, err := tfupdate.NewGlobalContext(fs, option)
	if err != nil {
		return nil, err
	}
	if err := tfupdate.UpdateFileOrDir(ctx, gc, "main.tf"); err != nil {
		return nil, err
	}
	out, err := afero.ReadFile(fs, "main.tf")
	if err != nil {
		return nil, err
	}
	file, diags := hclsyntax.ParseConfig(out, "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	for _, b := range file.Body.(*hclsyntax.Body).Blocks {
		if attr, ok := b.Body.Attributes["version"]; ok {
			v, diags := attr.Expr.Value(nil)
			if diags.HasErrors() || v.Type() != cty.String {
				return nil, fmt.Errorf("version argument: %v", diags)
			}
			s := v.AsString()
			return &s, nil
		}
	}
	return nil, nil
}

func main() {
	log.SetOutput(io.Discard) // tfupdate logs every file it updates
	ctx := context.Background()
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
		versions := row[1:]
		letters := make([]byte, len(versions))
		for i := range versions {
			one := listed(versions[i : i+1])
			if _, err := release.Latest(ctx, one); err == nil {
				letters[i] = 'a'
			} else if all, err := release.List(ctx, one, 1, true); err == nil && len(all) > 0 {
				letters[i] = 'r'
			} else {
				letters[i] = 'i'
			}
		}
		line := map[string]any{"v": string(letters), "sel": nil}
		if latest, err := release.Latest(ctx, listed(versions)); err == nil {
			line["sel"] = latest
			written, err := update(ctx, row[0], latest)
			line["written"] = written
			if err != nil {
				line["err"] = err.Error()
			}
		}
		if err := enc.Encode(line); err != nil {
			fmt.Fprintln(os.Stderr, "judge:", err)
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "judge:", err)
		os.Exit(2)
	}
}
