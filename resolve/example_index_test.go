package resolve_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/golden"
)

// exampleHistories maps the real version histories of testdata/corpus
// to the source addresses of the example root module in
// testdata/resolve (its README.md says where each history came from).
var exampleHistories = []struct {
	section, address, file string
}{
	{"modules", "terraform-aws-modules/vpc/aws", "terraform-aws-vpc.txt"},
	{"modules", "terraform-aws-modules/eks/aws", "terraform-aws-eks.txt"},
	{"modules", "hashicorp/consul-k8s/kubernetes", "consul-k8s.txt"},
	{"providers", "hashicorp/google", "terraform-provider-google.txt"},
	{"providers", "cloudflare/cloudflare", "terraform-provider-cloudflare.txt"},
	{"providers", "hashicorp/helm", "terraform-provider-helm.txt"},
	{"providers", "hashicorp/kubernetes", "terraform-provider-kubernetes.txt"},
	{"providers", "IBM-Cloud/ibm", "terraform-provider-ibm.txt"},
}

const (
	exampleDir = "../testdata/resolve"
	corpusDir  = "../testdata/corpus/versions"
)

// buildExampleIndex writes the offline index of the example from the
// corpus: for each address the body its registry versions request would
// return, the versions in the history's order, without the leading "v"
// that git tags carry and registries do not serve.
func buildExampleIndex(dir string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	for si, section := range []string{"modules", "providers"} {
		fmt.Fprintf(&b, "  %q: {\n", section)
		var entries []string
		for _, h := range exampleHistories {
			if h.section != section {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, h.file))
			if err != nil {
				return nil, err
			}
			var vs []string
			for _, line := range strings.Split(string(data), "\n") {
				line = strings.TrimSpace(line)
				if line == "" {
					continue
				}
				vs = append(vs, fmt.Sprintf("      {\"version\": %q}", strings.TrimPrefix(line, "v")))
			}
			versions := "[\n" + strings.Join(vs, ",\n") + "\n    ]"
			if section == "modules" {
				entries = append(entries, fmt.Sprintf("    %q: {\"modules\": [{\"source\": %q, \"versions\": %s}]}", h.address, h.address, versions))
			} else {
				entries = append(entries, fmt.Sprintf("    %q: {\"versions\": %s}", h.address, versions))
			}
		}
		b.WriteString(strings.Join(entries, ",\n"))
		b.WriteString("\n  }")
		if si == 0 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// TestExampleIndexMatchesCorpus checks that testdata/resolve/index.json is
// what the corpus in testdata/corpus gives (with -update, writes it).
func TestExampleIndexMatchesCorpus(t *testing.T) {
	want, err := buildExampleIndex(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(exampleDir, "index.json")
	if golden.Update() {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the corpus histories; run go test ./resolve -run ExampleIndex -update", path)
	}
}
