package registrytest

import (
	"context"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/prerel/prerel/terraform/config"
)

// Env is a root module in a temporary directory with its own CLI
// configuration and registry; each run names its data directory.
type Env struct {
	t *testing.T
	// Reg is the registry the CLI configuration points Host at.
	Reg *Registry
	// Tmp is the temporary directory, also HOME; Root is the root
	// module, Tmp/root.
	Tmp, Root string
	cli, ca   string
}

// NewEnv makes an Env with a registry of its own.
func NewEnv(t *testing.T) *Env {
	e := &Env{t: t, Reg: New(t), Tmp: t.TempDir()}
	e.Root = filepath.Join(e.Tmp, "root")
	e.ca = filepath.Join(e.Tmp, "ca.pem")
	e.Write(e.ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: e.Reg.srv.Certificate().Raw})))
	e.cli = filepath.Join(e.Tmp, "cli.tfrc")
	e.Write(e.cli, fmt.Sprintf("host %q {\n  services = {\n    \"modules.v1\"   = %q\n    \"providers.v1\" = %q\n  }\n}\n",
		Host, e.Reg.srv.URL+"/v1/modules/", e.Reg.srv.URL+"/v1/providers/"))
	return e
}

// Write writes content to path, making its directory.
func (e *Env) Write(path, content string) {
	e.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// Command is bin with args in the root module, with data directory
// data and no network beyond the local registry.
func (e *Env) Command(ctx context.Context, bin, data string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = e.Root
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + e.Tmp,
		"TF_CLI_CONFIG_FILE=" + e.cli, "SSL_CERT_FILE=" + e.ca, "TF_DATA_DIR=" + data,
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "NO_PROXY=*",
	}
	return cmd
}

// Run runs Command with a generous deadline and returns its output,
// stdout and stderr together.
func (e *Env) Run(bin, data string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out, err := e.Command(ctx, bin, data, args...).CombinedOutput()
	return string(out), err
}

// Init runs init without a backend or input.
func (e *Env) Init(bin, data string, args ...string) (string, error) {
	return e.Run(bin, data, append([]string{"init", "-backend=false", "-input=false", "-no-color"}, args...)...)
}

// MustInit is Init that fails the test when init fails.
func (e *Env) MustInit(bin, data string, args ...string) string {
	e.t.Helper()
	out, err := e.Init(bin, data, args...)
	if err != nil {
		e.t.Fatalf("%s init: %v\n%s", bin, err, out)
	}
	return out
}

// Installed returns the registry module versions of the module manifest
// in data, by call path; nil when there is none.
func Installed(t *testing.T, data string) map[string]string {
	t.Helper()
	path := filepath.Join(data, "modules", config.ManifestFileName)
	if !isFile(path) {
		return nil
	}
	m, diags := config.LoadManifest(path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	out := map[string]string{}
	for k, r := range m {
		if r.Version != "" {
			out[k] = r.Version
		}
	}
	return out
}

// Locked returns the version the root module's lock file holds for
// Provider, "" when it holds none.
func (e *Env) Locked() string {
	e.t.Helper()
	path := filepath.Join(e.Root, config.LockFileName)
	if !isFile(path) {
		return ""
	}
	locks, diags := config.LoadLockFile(path)
	if diags.HasErrors() {
		e.t.Fatal(diags)
	}
	for _, l := range locks {
		if l.Address == Provider {
			return l.Version
		}
	}
	return ""
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
