package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/catalogue"
)

// TestResolveReadsCLIConfig runs resolve with a CLI configuration whose
// host block gives a private registry's services and whose
// provider_installation block sends one provider to a filesystem mirror,
// the private registry's providers to it directly, and no other provider
// anywhere; and checks that the flags win over it.
func TestResolveReadsCLIConfig(t *testing.T) {
	var log authLog
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		switch r.URL.Path {
		case "/m/ns/name/aws/versions", "/r/m/ns/name/aws/versions":
			w.Write([]byte(`{"modules":[{"versions":[{"version":"1.0.0"},{"version":"1.1.0"}]}]}`))
		case "/p/ns/thing/versions", "/r/p/ns/thing/versions":
			w.Write([]byte(`{"versions":[{"version":"3.0.0"}]}`))
		case "/r/.well-known/terraform.json":
			w.Write([]byte(`{"modules.v1": "/r/m/", "providers.v1": "/r/p/"}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer reg.Close()

	root := t.TempDir()
	writeFile(t, filepath.Join(root, "main.tf"), `
module "private" {
  source  = "reg.example/ns/name/aws"
  version = ">= 1.0.0"
}
terraform {
  required_providers {
    thing = { source = "reg.example/ns/thing" }
    local = { source = "hashicorp/local" }
    aws   = { source = "hashicorp/aws" }
  }
}
`)
	writeFile(t, filepath.Join(root, "mirror", "registry.terraform.io", "hashicorp", "local", "terraform-provider-local_2.5.0_linux_amd64.zip"), "zip")
	home := t.TempDir()
	cliConfig := filepath.Join(home, "cli.tfrc")
	writeFile(t, cliConfig, `host "reg.example" {
  services = {
    "modules.v1"   = "`+reg.URL+`/m/"
    "providers.v1" = "`+reg.URL+`/p/"
  }
}
provider_installation {
  filesystem_mirror {
    path    = "mirror"
    include = ["hashicorp/local"]
  }
  direct {
    include = ["reg.example/*/*"]
  }
}
`)
	broken := filepath.Join(home, "broken.tfrc")
	writeFile(t, broken, "provider_installation {\n  ftp_mirror {}\n}\n")
	index := filepath.Join(home, "index.json")
	writeFile(t, index, `{"modules": {"reg.example/ns/name/aws": {"modules": [{"versions": [{"version": "1.0.0"}]}]}},
"providers": {"reg.example/ns/thing": {"versions": [{"version": "3.0.0"}]}, "hashicorp/local": {"versions": [{"version": "2.0.0"}]}, "hashicorp/aws": {"versions": [{"version": "6.0.0"}]}}}`)
	noMethod := "no installation method of the CLI configuration's provider_installation block at " + cliConfig + ":7 includes registry.terraform.io/hashicorp/aws"

	tests := []struct {
		name     string
		environ  []string
		args     []string
		code     int
		stdout   []string // each in stdout
		stderr   []string // each in stderr
		requests []string // each among the registry's requests
		absent   string   // in neither stdout nor stderr
	}{
		{
			name:     "host block and provider_installation",
			environ:  []string{"HOME=" + home, "TF_CLI_CONFIG_FILE=" + cliConfig},
			code:     exitFailure,
			stdout:   []string{"1.1.0", "3.0.0", "2.5.0"},
			stderr:   []string{noMethod},
			requests: []string{"/m/ns/name/aws/versions", "/p/ns/thing/versions"},
		},
		{
			name:     "--registry-url HOST=URL wins over the host block",
			environ:  []string{"HOME=" + home, "TF_CLI_CONFIG_FILE=" + cliConfig},
			args:     []string{"--registry-url", "reg.example=" + reg.URL + "/r"},
			code:     exitFailure,
			stdout:   []string{"1.1.0", "3.0.0", "2.5.0"},
			stderr:   []string{noMethod},
			requests: []string{"/r/.well-known/terraform.json", "/r/m/ns/name/aws/versions", "/r/p/ns/thing/versions"},
		},
		{
			name:    "--index wins over everything",
			environ: []string{"HOME=" + home, "TF_CLI_CONFIG_FILE=" + cliConfig},
			args:    []string{"--index", index},
			code:    exitOK,
			stdout:  []string{"6.0.0", "2.0.0"},
			absent:  "CLI configuration",
		},
		{
			name:    "--index reads no CLI configuration, broken or not",
			environ: []string{"HOME=" + home, "TF_CLI_CONFIG_FILE=" + broken},
			args:    []string{"--index", index},
			code:    exitOK,
			absent:  "warning",
		},
		{
			name:    "an error in the CLI configuration is a warning, and no method is left",
			environ: []string{"HOME=" + home, "TF_CLI_CONFIG_FILE=" + broken},
			args:    []string{"--registry-url", "reg.example=" + reg.URL + "/r"},
			code:    exitFailure,
			stderr: []string{`prerel resolve: warning: the CLI configuration: ` + broken + `:2:3: Invalid provider_installation method block; unknown provider installation method "ftp_mirror"`,
				"no installation method of the CLI configuration's provider_installation block at " + broken + ":1 includes registry.terraform.io/hashicorp/local"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log.seen = nil
			var stdout, stderr bytes.Buffer
			e := &env{
				stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
				registry: catalogue.New(),
				getenv:   testEnv(nil),
				environ:  func() []string { return tt.environ },
			}
			args := append(append([]string{"resolve", "--retries", "0"}, tt.args...), root)
			code := run(e, args)
			out := stdout.String() + stderr.String()
			if code != tt.code {
				t.Errorf("exit %d, want %d:\n%s", code, tt.code, out)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout.String())
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
				}
			}
			for _, s := range tt.requests {
				if !strings.Contains(log.String(), s) {
					t.Errorf("the registry was not asked for %s:\n%s", s, log.String())
				}
			}
			if tt.absent != "" && strings.Contains(out, tt.absent) {
				t.Errorf("the output has %q:\n%s", tt.absent, out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(root, ".terraform")); err == nil {
		t.Error("resolve wrote .terraform")
	}
}

// TestCLIConfigAgreesWithTerraform runs terraform init, when terraform is
// on PATH, on testdata/cliconfig under its CLI configuration, whose
// provider_installation sends no provider to the network, and checks that
// resolve lists what terraform init installs: hashicorp/local 2.5.0 from
// the filesystem mirror, and hashicorp/aws from nowhere.
func TestCLIConfigAgreesWithTerraform(t *testing.T) {
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("terraform is not on PATH")
	}
	dir := filepath.Join(t.TempDir(), "cliconfig")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/cliconfig")); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(dir, "cli.tfrc")
	environ := []string{"HOME=" + t.TempDir(), "TF_CLI_CONFIG_FILE=" + cliConfig}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tf, "init", "-input=false", "-no-color", "-backend=false")
	cmd.Dir = dir
	cmd.Env = append(environ, "CHECKPOINT_DISABLE=1", "PATH="+os.Getenv("PATH"))
	out, _ := cmd.CombinedOutput() // fails: aws cannot be installed, and the mirror's zips are empty
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{"Installing hashicorp/local v2.5.0", "provider registry.terraform.io/hashicorp/aws was not found in any of the search locations"} {
		if !strings.Contains(text, want) {
			t.Fatalf("terraform init does not say %q:\n%s", want, out)
		}
	}

	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, registry: catalogue.New(),
		getenv: testEnv(nil), environ: func() []string { return environ }}
	code := run(e, []string{"resolve", "--format", "json", dir})
	var rep struct {
		Items []struct {
			Name     string  `json:"name"`
			Selected *string `json:"selected"`
		} `json:"items"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("exit %d: %v\n%s%s", code, err, stdout.String(), stderr.String())
	}
	got := map[string]string{}
	for _, it := range rep.Items {
		got[it.Name] = "none"
		if it.Selected != nil {
			got[it.Name] = *it.Selected
		}
	}
	if got["local"] != "2.5.0" || got["aws"] != "none" || code != exitFailure {
		t.Errorf("resolve: exit %d, selected %v; want local 2.5.0 and aws none, as terraform init:\n%s", code, got, stderr.String())
	}
	if !strings.Contains(stderr.String(), "no installation method of the CLI configuration's provider_installation block at "+cliConfig+":4 includes registry.terraform.io/hashicorp/aws") {
		t.Errorf("stderr does not say why aws cannot be installed:\n%s", stderr.String())
	}
}
