package pin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/installer/installertest"
	"github.com/prerel/prerel/terraform/registry"
)

// runResolve is resolve.Run with the fixtures' releases for a product
// opts does not name (installertest.Fill): no golden file follows the
// newest release. TestNewestReleases runs with the newest.
func runResolve(ctx context.Context, opts resolve.Options) (*resolve.Report, error) {
	installertest.Fill(&opts.Terraform, &opts.OpenTofu)
	return resolve.Run(ctx, opts)
}

// TestNewestReleases plans the tree with no release named, which
// follows the newest releases prerel knows, and checks what holds
// whichever they are: the plan names them, says "Today is" them, and is
// the plan of the newest named explicitly.
func TestNewestReleases(t *testing.T) {
	cfg, diags := policyconfig.LoadDir(policies, treeDir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	x, err := registry.LoadIndex(filepath.Join(treeDir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	tree, tdiags := config.LoadTree(treeDir, config.TreeOptions{SkipFile: pin.Skip})
	if tdiags.HasErrors() {
		t.Fatal(tdiags)
	}
	tf, tofu := installer.Newest(installer.Terraform), installer.Newest(installer.OpenTofu)
	planWith := func(tf, tofu installer.Release) *pin.Plan {
		t.Helper()
		rep, err := resolve.Run(context.Background(), resolve.Options{Dir: treeDir, Config: cfg, Versions: x, Policies: policies, SkipFile: pin.Skip,
			Terraform: tf, OpenTofu: tofu})
		if err != nil {
			t.Fatal(err)
		}
		p, err := pin.Build(rep, tree, pin.Options{Policies: policies})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := planWith(installer.Release{}, installer.Release{})
	if want := []string{tf.String(), tofu.String()}; !slices.Equal(p.Installers, want) {
		t.Errorf("installers %q, want the newest, %q", p.Installers, want)
	}
	var text bytes.Buffer
	if err := pin.Render(&text, pin.Text, p, pin.RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "Today is " + tf.Display() + " and " + tofu.Display() + "."; !strings.Contains(text.String(), want) {
		t.Errorf("the text plan does not say %q:\n%s", want, text.String())
	}
	if got, want := mustJSON(t, p), mustJSON(t, planWith(tf, tofu)); got != want {
		t.Errorf("the plan with no release named differs from the newest named:\n%s\nwant\n%s", got, want)
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
