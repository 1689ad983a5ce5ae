package impact_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/impact"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/installer/installertest"
	"github.com/prerel/prerel/terraform/registry"
)

// runImpact is impact.Run with the fixtures' releases for a product opts
// does not name (installertest.Fill), and loadDirs impact.LoadDirs with
// them: no golden file follows the newest release. TestNewestReleases
// runs with the newest.
func runImpact(d *impact.Domain, opts impact.Options) (*impact.Report, error) {
	installertest.Fill(&opts.Terraform, &opts.OpenTofu)
	return impact.Run(d, opts)
}

func loadDirs(ctx context.Context, dirs []string, src registry.Source, policies *engine.Registry) (*impact.Domain, error) {
	tf, tofu := installertest.Releases()
	return impact.LoadDirsAs(ctx, dirs, src, policies, tf, tofu)
}

// TestNewestReleases runs the small domain against today's installers
// with no release named, which follows the newest releases prerel
// knows, and checks what holds whichever they are: the report names
// them, says it is against them, and is the report of the newest named
// explicitly.
func TestNewestReleases(t *testing.T) {
	tf, tofu := installer.Newest(installer.Terraform), installer.Newest(installer.OpenTofu)
	opts := impact.Options{Policy: mustPolicy(t, "linear"), Policies: catalogue.New()}
	r, err := impact.Run(smallDomain(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{tf.String(), tofu.String()}; !slices.Equal(r.Against.Installers, want) {
		t.Errorf("installers %q, want the newest, %q", r.Against.Installers, want)
	}
	var text bytes.Buffer
	if err := impact.Render(&text, report.Text, r, report.Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "against: today's installers (" + tf.Display() + ", " + tofu.Display() + "),"; !strings.Contains(text.String(), want) {
		t.Errorf("the text report does not say %q:\n%s", want, text.String())
	}
	opts.Terraform, opts.OpenTofu = tf, tofu
	named, err := impact.Run(smallDomain(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustJSON(t, r), mustJSON(t, named); got != want {
		t.Errorf("the report with no release named differs from the newest named:\n%s\nwant\n%s", got, want)
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
