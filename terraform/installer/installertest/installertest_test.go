package installertest_test

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/installer/installertest"
)

// TestReleases: the fixtures' releases are releases prerel knows, one of
// each product, and Env names both as PREREL_INSTALLER takes them.
func TestReleases(t *testing.T) {
	tf, tofu := installertest.Releases()
	if tf.Product != installer.Terraform || tofu.Product != installer.OpenTofu {
		t.Errorf("Releases() = %s, %s; want a Terraform release, then an OpenTofu one", tf, tofu)
	}
	for _, s := range strings.Split(installertest.Env, ",") {
		if _, err := installer.Parse(s); err != nil {
			t.Errorf("Env %q: %v", installertest.Env, err)
		}
	}
	if installertest.Env != tf.String()+","+tofu.String() {
		t.Errorf("Env = %q, want %s,%s", installertest.Env, tf, tofu)
	}
}

// TestFill sets the zero releases only.
func TestFill(t *testing.T) {
	tf, tofu := installertest.Releases()
	var a, b installer.Release
	installertest.Fill(&a, &b)
	if a.String() != tf.String() || b.String() != tofu.String() {
		t.Errorf("Fill of zero releases: %s, %s; want %s, %s", a, b, tf, tofu)
	}
	a, b = installer.MustParse("terraform@1.12.2"), installer.Release{}
	installertest.Fill(&a, &b)
	if a.String() != "terraform@1.12.2" || b.String() != tofu.String() {
		t.Errorf("Fill of terraform@1.12.2 and a zero release: %s, %s; want terraform@1.12.2, %s", a, b, tofu)
	}
}
