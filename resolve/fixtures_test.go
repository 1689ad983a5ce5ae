package resolve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/installer/installertest"
)

// runResolve is resolve.Run with the fixtures' releases
// (installertest) for a product opts does not name, so that no test or
// golden file follows the newest release prerel knows: a release added
// to the table changes none of them. TestNewestReleases runs with the
// newest.
func runResolve(ctx context.Context, opts resolve.Options) (*resolve.Report, error) {
	installertest.Fill(&opts.Terraform, &opts.OpenTofu)
	return resolve.Run(ctx, opts)
}

// TestNewestReleases resolves the installers example with no release
// named, which follows the newest releases prerel knows, and checks
// what holds whichever they are: the report names them, is the report
// of the newest named explicitly, and a provider listing a version
// go-versions cannot read fails the query of exactly the newest that do
// not skip it.
func TestNewestReleases(t *testing.T) {
	opts := installersOptions(t)
	r, err := resolve.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	tf, tofu := installer.Newest(installer.Terraform), installer.Newest(installer.OpenTofu)
	if want := []string{tf.String(), tofu.String()}; !slices.Equal(r.Installers, want) {
		t.Errorf("installers %q, want the newest, %q", r.Installers, want)
	}
	var text bytes.Buffer
	if err := resolve.Render(&text, report.Text, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	if want := "\ntoday:          " + tf.Display() + ", " + tofu.Display() + "\n"; !strings.Contains(text.String(), want) {
		t.Errorf("the text report does not say %q:\n%s", want, text.String())
	}

	opts.Terraform, opts.OpenTofu = tf, tofu
	named, err := resolve.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustJSON(t, r), mustJSON(t, named); got != want {
		t.Errorf("the report with no release named differs from the newest named:\n%s\nwant\n%s", got, want)
	}

	// The index lists the provider aws's 1.2.3.4, which go-versions
	// cannot read.
	var aws *resolve.Item
	for i := range r.Items {
		if r.Items[i].Kind == resolve.KindProvider && r.Items[i].Name == "aws" {
			aws = &r.Items[i]
		}
	}
	if aws == nil {
		t.Fatalf("no provider aws among %d items", len(r.Items))
	}
	var failed []string
	for _, e := range aws.TodayErrors {
		failed = append(failed, e.Installer)
	}
	var want []string
	for _, rel := range []installer.Release{tf, tofu} {
		if !rel.SkipsInvalidProviderVersions() {
			want = append(want, rel.String())
		}
	}
	if !slices.Equal(failed, want) {
		t.Errorf("provider aws fails the query of %q, want %q", failed, want)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
