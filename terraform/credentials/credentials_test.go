package credentials

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/internal/diag"
)

// noHome stands for a user database that must not be consulted.
func noHome() (string, error) { return "", errors.New("no user database in tests") }

// write creates the file rel under dir with content, and its directories.
func write(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// formatAll formats diagnostics one per line, with dir replaced by "~".
func formatAll(diags hcl.Diagnostics, dir string) []string {
	var out []string
	for _, d := range diags {
		s := diag.Format(d)
		if dir != "" {
			s = strings.ReplaceAll(s, dir, "~")
		}
		out = append(out, s)
	}
	return out
}

// loadQuick runs load with a deadline, failing the test if it blocks.
func loadQuick(t *testing.T, environ []string, goos string) (*Store, hcl.Diagnostics) {
	t.Helper()
	type result struct {
		s     *Store
		diags hcl.Diagnostics
	}
	done := make(chan result, 1)
	go func() {
		s, diags := load(environ, goos, noHome)
		done <- result{s, diags}
	}()
	select {
	case r := <-done:
		return r.s, r.diags
	case <-time.After(10 * time.Second):
		t.Fatal("load did not return within 10s")
		return nil, nil
	}
}

func TestEnvHost(t *testing.T) {
	for _, tt := range []struct {
		name string
		want string // "" when the name is ignored
	}{
		{"TF_TOKEN_reg_example", "reg.example"},
		{"TF_TOKEN_app_terraform_io", "app.terraform.io"},
		{"TF_TOKEN_my__reg_example", "my-reg.example"},
		{"TF_TOKEN_my-reg_example", "my-reg.example"},
		{"TF_TOKEN_reg.example", "reg.example"},
		{"TF_TOKEN_REG_EXAMPLE", "reg.example"},
		{"TF_TOKEN_Reg_Example", "reg.example"},
		{"TF_TOKEN_xn--bcher-kva_example", "xn--bcher-kva.example"},
		{"TF_TOKEN_xn____bcher__kva_example", "xn--bcher-kva.example"},
		{"TF_TOKEN_XN--BCHER-KVA_EXAMPLE", "xn--bcher-kva.example"},
		{"TF_TOKEN_bücher_example", "xn--bcher-kva.example"},
		{"TF_TOKEN_BÜCHER_EXAMPLE", "xn--bcher-kva.example"},
		{"TF_TOKEN_reg_example:8443", "reg.example:8443"},
		{"TF_TOKEN_reg_example:443", "reg.example"},
		{"TF_TOKEN_reg_example:08443", "reg.example:8443"},
		{"TF_TOKEN_127_0_0_1:18080", "127.0.0.1:18080"},
		{"TF_TOKEN_localhost", "localhost"},
		{"TF_TOKEN_", ""},
		{"TF_TOKEN_reg_example_", "reg.example."},
		{"TF_TOKEN__reg_example", ""},
		{"TF_TOKEN_reg___example", ""},
		{"TF_TOKEN_reg_example:port", ""},
		{"TF_TOKEN_reg_example:99999", ""},
		{"TF_TOKEN_reg example", ""},
		{"TF_TOKEN_https://reg_example", ""},
		{"TF_TOKENS_reg_example", ""},
		{"tf_token_reg_example", ""},
		{"TF_TOKEN", ""},
		{"TF_TOKEN_reg/example", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := envHost(tt.name)
			if got := string(h); got != tt.want || ok != (tt.want != "") {
				t.Errorf("envHost(%q) = %q, %v; want %q", tt.name, got, ok, tt.want)
			}
		})
	}
}

func TestEnvName(t *testing.T) {
	for _, tt := range []struct{ host, want string }{
		{"app.terraform.io", "TF_TOKEN_app_terraform_io"},
		{"My-Reg.Example", "TF_TOKEN_my__reg_example"},
		{"bücher.example", "TF_TOKEN_xn____bcher__kva_example"},
		{"xn--bcher-kva.example", "TF_TOKEN_xn____bcher__kva_example"},
		{"reg.example:443", "TF_TOKEN_reg_example"},
		{"reg.example:8443", "TF_TOKEN_reg_example:8443"},
		{"not a host", ""},
		{"", ""},
	} {
		got := EnvName(tt.host)
		if got != tt.want {
			t.Errorf("EnvName(%q) = %q, want %q", tt.host, got, tt.want)
		}
		if got == "" {
			continue
		}
		// Every name EnvName gives decodes back to its host.
		h, ok := envHost(got)
		want, _ := normalize(tt.host)
		if !ok || h != want {
			t.Errorf("envHost(%q) = %q, %v; want %q", got, h, ok, want)
		}
	}
}

func TestTokenPrecedence(t *testing.T) {
	const (
		rc    = ".terraformrc"
		creds = ".terraform.d/credentials.tfrc.json"
	)
	type want struct{ host, token, source string }
	for _, tt := range []struct {
		name  string
		env   []string
		files map[string]string
		want  []want // source "" means no token
	}{
		{
			name: "environment over both files",
			env:  []string{"TF_TOKEN_reg_example=from-env"},
			files: map[string]string{
				rc:    `credentials "reg.example" { token = "from-rc" }`,
				creds: `{"credentials": {"reg.example": {"token": "from-json"}}}`,
			},
			want: []want{{"reg.example", "from-env", "TF_TOKEN_reg_example"}},
		},
		{
			name: "credentials.tfrc.json over the CLI configuration file",
			files: map[string]string{
				rc:    `credentials "reg.example" { token = "from-rc" }`,
				creds: `{"credentials": {"reg.example": {"token": "from-json"}}}`,
			},
			want: []want{{"reg.example", "from-json", "~/.terraform.d/credentials.tfrc.json"}},
		},
		{
			name: "each source for its own hosts",
			env:  []string{"TF_TOKEN_a_example=A"},
			files: map[string]string{
				rc:    `credentials "b.example" { token = "B" }`,
				creds: `{"credentials": {"c.example": {"token": "C"}}}`,
			},
			want: []want{
				{"a.example", "A", "TF_TOKEN_a_example"},
				{"b.example", "B", "credentials block in ~/.terraformrc"},
				{"c.example", "C", "~/.terraform.d/credentials.tfrc.json"},
				{"d.example", "", ""},
			},
		},
		{
			name: "later file in the configuration directory wins",
			files: map[string]string{
				".terraform.d/a.tfrc":                 `credentials "reg.example" { token = "A" }`,
				".terraform.d/b.tfrc.json":            `{"credentials": {"reg.example": {"token": "B"}}}`,
				".terraform.d/c.txt":                  `credentials "reg.example" { token = "not read" }`,
				".terraform.d/credentials.tfrc.json~": `{"credentials": {"reg.example": {"token": "not read"}}}`,
			},
			want: []want{{"reg.example", "B", "~/.terraform.d/b.tfrc.json"}},
		},
		{
			name: "a block without a token hides the sources after it",
			files: map[string]string{
				rc:    `credentials "reg.example" { token = "from-rc" }`,
				creds: `{"credentials": {"reg.example": {}}}`,
			},
			want: []want{{"reg.example", "", ""}},
		},
		{
			name: "an empty variable hides the files",
			env:  []string{"TF_TOKEN_reg_example="},
			files: map[string]string{
				rc: `credentials "reg.example" { token = "from-rc" }`,
			},
			want: []want{{"reg.example", "", ""}},
		},
		{
			name: "later variable for one host wins",
			env:  []string{"TF_TOKEN_reg_example=first", "TF_TOKEN_REG_EXAMPLE=second"},
			want: []want{{"reg.example", "second", "TF_TOKEN_REG_EXAMPLE"}},
		},
		{
			name: "host spellings are one host",
			env:  []string{"TF_TOKEN_xn--bcher-kva_example=idn"},
			files: map[string]string{
				rc: `credentials "REG.example:443" { token = "R" }`,
			},
			want: []want{
				{"reg.example", "R", "credentials block in ~/.terraformrc"},
				{"Reg.Example:443", "R", "credentials block in ~/.terraformrc"},
				{"xn--bcher-kva.example", "idn", "TF_TOKEN_xn--bcher-kva_example"},
				{"bücher.example", "idn", "TF_TOKEN_xn--bcher-kva_example"},
				{"reg.example:8443", "", ""},
			},
		},
		{
			name:  "a broken file gives no token but the others do",
			files: map[string]string{rc: `credentials "a.example" { token = "A" } }`, creds: `{"credentials": {"b.example": {"token": "B"}}}`},
			want:  []want{{"a.example", "", ""}, {"b.example", "B", "~/.terraform.d/credentials.tfrc.json"}},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			for rel, content := range tt.files {
				write(t, home, rel, content)
			}
			s, _ := loadQuick(t, append([]string{"HOME=" + home}, tt.env...), "linux")
			for _, w := range tt.want {
				tok, src, ok := s.Token(w.host)
				src = strings.ReplaceAll(src, home, "~")
				if tok != w.token || src != w.source || ok != (w.source != "") {
					t.Errorf("Token(%q) = %q, %q, %v; want %q, %q", w.host, tok, src, ok, w.token, w.source)
				}
			}
		})
	}
}

func TestTokenInvalidHost(t *testing.T) {
	home := t.TempDir()
	s, _ := loadQuick(t, []string{"HOME=" + home, "TF_TOKEN_reg_example=x"}, "linux")
	for _, h := range []string{"", "reg example", "https://reg.example", "reg.example:x", "[::1]:8080"} {
		if tok, src, ok := s.Token(h); ok || tok != "" || src != "" {
			t.Errorf("Token(%q) = %q, %q, %v; want none", h, tok, src, ok)
		}
	}
	var nilStore *Store
	if _, _, ok := nilStore.Token("reg.example"); ok {
		t.Error("nil Store gave a token")
	}
	if got := nilStore.Sources(); got != nil {
		t.Errorf("nil Store Sources = %q", got)
	}
	var zero Store
	if _, _, ok := zero.Token("reg.example"); ok || zero.Sources() != nil || zero.Hosts() != nil || zero.Helpers() != nil {
		t.Error("zero Store is not empty")
	}
}

func TestCLIConfigFileOverride(t *testing.T) {
	home := t.TempDir()
	write(t, home, ".terraformrc", `credentials "reg.example" { token = "home" }`)
	write(t, home, ".terraform.d/credentials.tfrc.json", `{"credentials": {"other.example": {"token": "dir"}}}`)
	ci := write(t, t.TempDir(), "ci.tfrc", `credentials "reg.example" { token = "ci" }`)
	other := write(t, t.TempDir(), "other.tfrc", `credentials "reg.example" { token = "other" }`)
	missing := filepath.Join(home, "missing.tfrc")

	for _, tt := range []struct {
		name        string
		env         []string
		token       string
		source      string
		dirToken    bool
		sources     []string
		diagnostics []string
	}{
		{
			name:     "default files",
			token:    "home",
			source:   "credentials block in ~/.terraformrc",
			dirToken: true,
			sources:  []string{envSource, "~/.terraform.d/credentials.tfrc.json", "credentials blocks in ~/.terraformrc"},
		},
		{
			name:    "TF_CLI_CONFIG_FILE replaces the file and the directory",
			env:     []string{"TF_CLI_CONFIG_FILE=" + ci},
			token:   "ci",
			source:  "credentials block in " + ci,
			sources: []string{envSource, "credentials blocks in " + ci + " (TF_CLI_CONFIG_FILE)"},
		},
		{
			name:    "TERRAFORM_CONFIG when TF_CLI_CONFIG_FILE is not set",
			env:     []string{"TERRAFORM_CONFIG=" + other},
			token:   "other",
			source:  "credentials block in " + other,
			sources: []string{envSource, "credentials blocks in " + other + " (TERRAFORM_CONFIG)"},
		},
		{
			name:    "TF_CLI_CONFIG_FILE before TERRAFORM_CONFIG",
			env:     []string{"TERRAFORM_CONFIG=" + other, "TF_CLI_CONFIG_FILE=" + ci},
			token:   "ci",
			source:  "credentials block in " + ci,
			sources: []string{envSource, "credentials blocks in " + ci + " (TF_CLI_CONFIG_FILE)"},
		},
		{
			name:        "a missing file named by TF_CLI_CONFIG_FILE",
			env:         []string{"TF_CLI_CONFIG_FILE=" + missing},
			sources:     []string{envSource, "credentials blocks in ~/missing.tfrc (TF_CLI_CONFIG_FILE) (not read: it does not exist)"},
			diagnostics: []string{"warning: Missing CLI configuration; TF_CLI_CONFIG_FILE names ~/missing.tfrc, which does not exist"},
		},
		{
			name:     "an empty TF_CLI_CONFIG_FILE is not set",
			env:      []string{"TF_CLI_CONFIG_FILE="},
			token:    "home",
			source:   "credentials block in ~/.terraformrc",
			dirToken: true,
			sources:  []string{envSource, "~/.terraform.d/credentials.tfrc.json", "credentials blocks in ~/.terraformrc"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := loadQuick(t, append([]string{"HOME=" + home}, tt.env...), "linux")
			tok, src, _ := s.Token("reg.example")
			if src = strings.ReplaceAll(src, home, "~"); tok != tt.token || src != tt.source {
				t.Errorf("Token = %q, %q; want %q, %q", tok, src, tt.token, tt.source)
			}
			if _, _, ok := s.Token("other.example"); ok != tt.dirToken {
				t.Errorf("token from the configuration directory: %v, want %v", ok, tt.dirToken)
			}
			var sources []string
			for _, x := range s.Sources() {
				sources = append(sources, strings.ReplaceAll(x, home, "~"))
			}
			if !reflect.DeepEqual(sources, tt.sources) {
				t.Errorf("Sources = %q\nwant %q", sources, tt.sources)
			}
			if got := formatAll(diags, home); !reflect.DeepEqual(got, tt.diagnostics) {
				t.Errorf("diagnostics = %q\nwant %q", got, tt.diagnostics)
			}
		})
	}
}

func TestFileLocations(t *testing.T) {
	type want struct{ token, source string }
	for _, tt := range []struct {
		name  string
		goos  string
		files []string // files under the temporary root, each with a token named after it
		env   []string // "$ROOT" is replaced by the temporary root
		want  want
		dir   string // token expected from a file in the configuration directory
	}{
		{
			name:  "Terraform's file",
			files: []string{"home/.terraformrc"},
			env:   []string{"HOME=$ROOT/home"},
			want:  want{"home/.terraformrc", "credentials block in $ROOT/home/.terraformrc"},
		},
		{
			name:  "OpenTofu's file when Terraform's does not exist",
			files: []string{"home/.tofurc"},
			env:   []string{"HOME=$ROOT/home"},
			want:  want{"home/.tofurc", "credentials block in $ROOT/home/.tofurc"},
		},
		{
			name:  "Terraform's file when both exist",
			files: []string{"home/.terraformrc", "home/.tofurc"},
			env:   []string{"HOME=$ROOT/home"},
			want:  want{"home/.terraformrc", "credentials block in $ROOT/home/.terraformrc"},
		},
		{
			name:  "OpenTofu's file under XDG_CONFIG_HOME",
			files: []string{"xdg/opentofu/tofurc"},
			env:   []string{"HOME=$ROOT/home", "XDG_CONFIG_HOME=$ROOT/xdg"},
			want:  want{"xdg/opentofu/tofurc", "credentials block in $ROOT/xdg/opentofu/tofurc"},
		},
		{
			name:  "the file in the home directory before XDG_CONFIG_HOME",
			files: []string{"home/.tofurc", "xdg/opentofu/tofurc"},
			env:   []string{"HOME=$ROOT/home", "XDG_CONFIG_HOME=$ROOT/xdg"},
			want:  want{"home/.tofurc", "credentials block in $ROOT/home/.tofurc"},
		},
		{
			name:  "OpenTofu's directory under XDG_CONFIG_HOME",
			files: []string{"xdg/opentofu/credentials.tfrc.json"},
			env:   []string{"HOME=$ROOT/home", "XDG_CONFIG_HOME=$ROOT/xdg"},
			want:  want{"xdg/opentofu/credentials.tfrc.json", "$ROOT/xdg/opentofu/credentials.tfrc.json"},
		},
		{
			name:  "~/.terraform.d before XDG_CONFIG_HOME",
			files: []string{"home/.terraform.d/credentials.tfrc.json", "xdg/opentofu/z.tfrc"},
			env:   []string{"HOME=$ROOT/home", "XDG_CONFIG_HOME=$ROOT/xdg"},
			want:  want{"home/.terraform.d/credentials.tfrc.json", "$ROOT/home/.terraform.d/credentials.tfrc.json"},
		},
		{
			name:  "the first HOME in the environment",
			files: []string{"home/.terraformrc", "other/.terraformrc"},
			env:   []string{"HOME=$ROOT/home", "HOME=$ROOT/other"},
			want:  want{"home/.terraformrc", "credentials block in $ROOT/home/.terraformrc"},
		},
		{
			name:  "Windows: terraform.rc in APPDATA",
			goos:  "windows",
			files: []string{"appdata/terraform.rc", "home/.terraformrc"},
			env:   []string{"HOME=$ROOT/home", "APPDATA=$ROOT/appdata"},
			want:  want{"appdata/terraform.rc", "credentials block in $ROOT/appdata/terraform.rc"},
		},
		{
			name:  "Windows: tofu.rc when terraform.rc does not exist",
			goos:  "windows",
			files: []string{"appdata/tofu.rc"},
			env:   []string{"APPDATA=$ROOT/appdata"},
			want:  want{"appdata/tofu.rc", "credentials block in $ROOT/appdata/tofu.rc"},
		},
		{
			name:  "Windows: the terraform.d directory",
			goos:  "windows",
			files: []string{"appdata/terraform.d/credentials.tfrc.json"},
			env:   []string{"APPDATA=$ROOT/appdata"},
			want:  want{"appdata/terraform.d/credentials.tfrc.json", "$ROOT/appdata/terraform.d/credentials.tfrc.json"},
		},
		{
			name:  "Windows without APPDATA",
			goos:  "windows",
			files: []string{"home/.terraformrc"},
			env:   []string{"HOME=$ROOT/home"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range tt.files {
				body := fmt.Sprintf(`credentials "reg.example" { token = %q }`, f)
				if strings.HasSuffix(f, ".json") {
					body = fmt.Sprintf(`{"credentials": {"reg.example": {"token": %q}}}`, f)
				}
				write(t, root, f, body)
			}
			var env []string
			for _, e := range tt.env {
				env = append(env, strings.ReplaceAll(e, "$ROOT", root))
			}
			goos := tt.goos
			if goos == "" {
				goos = "linux"
			}
			s, diags := loadQuick(t, env, goos)
			if len(diags) > 0 {
				t.Errorf("diagnostics: %q", formatAll(diags, root))
			}
			tok, src, _ := s.Token("reg.example")
			if src = strings.ReplaceAll(src, root, "$ROOT"); tok != tt.want.token || src != tt.want.source {
				t.Errorf("Token = %q, %q; want %q, %q", tok, src, tt.want.token, tt.want.source)
			}
		})
	}
}

func TestHomeFromUserDatabase(t *testing.T) {
	home := t.TempDir()
	write(t, home, ".terraformrc", `credentials "reg.example" { token = "db" }`)
	s, diags := load(nil, "linux", func() (string, error) { return home, nil })
	if tok, _, _ := s.Token("reg.example"); tok != "db" || len(diags) > 0 {
		t.Errorf("Token = %q, diagnostics %q; want the token from the user database's home", tok, formatAll(diags, home))
	}
	s, diags = load([]string{"HOME=", "TF_TOKEN_reg_example=env"}, "linux", noHome)
	if tok, _, _ := s.Token("reg.example"); tok != "env" {
		t.Errorf("Token = %q, want the variable's", tok)
	}
	want := []string{"warning: No home directory; HOME is not set and the home directory cannot be found (no user database in tests), so no CLI configuration file is read"}
	if got := formatAll(diags, ""); !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics = %q\nwant %q", got, want)
	}
}

func TestSpecialFiles(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	big := write(t, root, "big.tfrc", `credentials "reg.example" { token = "x" }`+"\n#"+strings.Repeat("x", FileLimit))
	dirAsFile := filepath.Join(root, "dir.tfrc")
	if err := os.Mkdir(dirAsFile, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, path, want string
	}{
		{"FIFO", fifo, fifo + ": Unreadable CLI configuration; not a regular file (it is a FIFO or pipe)"},
		{"/dev/zero", "/dev/zero", "/dev/zero: Unreadable CLI configuration; not a regular file (it is a character device)"},
		{"/dev/stdin", "/dev/stdin", ""},
		{"directory", dirAsFile, dirAsFile + ": Unreadable CLI configuration; not a regular file (it is a directory)"},
		{"larger than the limit", big, big + ": Unreadable CLI configuration; larger than 256 KiB, the limit for a CLI configuration file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil {
				t.Skip(err)
			}
			s, diags := loadQuick(t, []string{"HOME=" + root, "TF_CLI_CONFIG_FILE=" + tt.path, "TF_TOKEN_env_example=e"}, "linux")
			got := formatAll(diags, "")
			if tt.want != "" && !reflect.DeepEqual(got, []string{tt.want}) {
				t.Errorf("diagnostics = %q\nwant %q", got, tt.want)
			}
			if _, _, ok := s.Token("reg.example"); ok {
				t.Error("a special file gave a token")
			}
			if _, _, ok := s.Token("env.example"); !ok {
				t.Error("the environment gave no token")
			}
		})
	}

	// The same files found in the configuration directory.
	home := t.TempDir()
	dir := filepath.Join(home, ".terraform.d")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"a.tfrc": fifo, "b.tfrc": "/dev/zero", "c.tfrc.json": big} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	write(t, dir, "d.tfrc", `credentials "reg.example" { token = "d" }`)
	s, diags := loadQuick(t, []string{"HOME=" + home}, "linux")
	if len(diags) != 3 {
		t.Errorf("diagnostics = %q, want 3", formatAll(diags, home))
	}
	if tok, _, _ := s.Token("reg.example"); tok != "d" {
		t.Errorf("Token = %q, want the regular file's", tok)
	}
}

func TestMalformedFiles(t *testing.T) {
	for _, tt := range []struct {
		name, file, content string
		want                []string
	}{
		{
			name:    "extra closing brace",
			file:    ".terraformrc",
			content: "credentials \"a.example\" {\n  token = \"x\"\n}\n}\n",
			want:    []string{"~/.terraformrc:4:1: Invalid CLI configuration; expected: IDENT | STRING | ASSIGN | LBRACE got: RBRACE"},
		},
		{
			name:    "unterminated string",
			file:    ".terraformrc",
			content: "credentials \"a.example\" {\n  token = \"x\n}\n",
			want:    []string{"~/.terraformrc:2:13: Invalid CLI configuration; literal not terminated"},
		},
		{
			name:    "missing equals",
			file:    ".terraformrc",
			content: "credentials \"a.example\" {\n  token \"SECRET\"\n}\n",
			want:    []string{"~/.terraformrc:3:1: Invalid CLI configuration; key expected start of object ('{') or assignment ('=')"},
		},
		{
			name:    "unquoted token",
			file:    ".terraformrc",
			content: "credentials \"a.example\" {\n  token = SECRET\n}\n",
			want:    []string{"~/.terraformrc:2:11: Invalid CLI configuration; unexpected token"},
		},
		{
			name:    "credentials as a string",
			file:    ".terraformrc",
			content: "credentials = \"SECRET\"\n",
			want:    []string{"~/.terraformrc:1:15: Invalid CLI configuration; root.credentials: not an object type for map (*ast.LiteralType)"},
		},
		{
			name:    "invalid host name",
			file:    ".terraformrc",
			content: "credentials \"good.example\" { token = \"g\" }\ncredentials \"bad host\" {\n  token = \"SECRET\"\n}\n",
			want:    []string{`~/.terraformrc:2:13: Invalid credentials block; the credentials "bad host" block has an invalid host name: idna: disallowed rune U+0020`},
		},
		{
			name:    "punycode host name",
			file:    ".terraformrc",
			content: "credentials \"xn--bcher-kva.example\" { token = \"SECRET\" }\n",
			want:    []string{`~/.terraformrc:1:13: Invalid credentials block; the credentials "xn--bcher-kva.example" block has an invalid host name: hostname label "xn--bcher-kva" specified in punycode format; service hostnames must be given in unicode`},
		},
		{
			name:    "JSON: line break in a string",
			file:    ".terraform.d/credentials.tfrc.json",
			content: "{\"credentials\": {\"a.example\": {\"token\": \"SEC\nRET\"}}}",
			want:    []string{"~/.terraform.d/credentials.tfrc.json:2:8: Invalid CLI configuration in JSON; literal not terminated"},
		},
		{
			name:    "JSON: unquoted key",
			file:    ".terraform.d/credentials.tfrc.json",
			content: "{\"credentials\": {\"a.example\": {token: \"SECRET\"}}}",
			want:    []string{"~/.terraform.d/credentials.tfrc.json:1:36: Invalid CLI configuration in JSON; illegal char"},
		},
		{
			name:    "JSON: credentials as a list",
			file:    ".terraform.d/credentials.tfrc.json",
			content: "{\"credentials\": [\"SECRET\"]}",
			want:    []string{"~/.terraform.d/credentials.tfrc.json: Invalid CLI configuration in JSON; root.credentials: not an object type for map (*ast.ListType)"},
		},
		{
			name:    "JSON: host not an object",
			file:    ".terraform.d/credentials.tfrc.json",
			content: "{\"credentials\": {\"a.example\": \"SECRET\"}}",
			want:    []string{"~/.terraform.d/credentials.tfrc.json: Invalid CLI configuration in JSON; root.credentials.a.example: not an object type for map (*ast.LiteralType)"},
		},
		{
			name:    "JSON: bad literal",
			file:    ".terraform.d/credentials.tfrc.json",
			content: "{\"credentials\": {\"a.example\": {\"token\": SECRET}}}",
			want:    []string{"~/.terraform.d/credentials.tfrc.json:1:46: Invalid CLI configuration in JSON; illegal char"},
		},
		{
			name:    "JSON: escape at the end",
			file:    ".terraform.d/credentials.tfrc.json",
			content: "{\"credentials\": {\"a.example\": {\"token\": \"SECRET\\0",
			want:    []string{"~/.terraform.d/credentials.tfrc.json: Invalid CLI configuration; the file cannot be parsed"},
		},
		{
			name:    "NUL byte",
			file:    ".terraformrc",
			content: "credentials \"a.example\" {\x00 token = \"SECRET\" }",
			want:    []string{"~/.terraformrc:1:26: Invalid CLI configuration; unexpected null character (0x00)"},
		},
		{
			name:    "number too large for the decoder",
			file:    ".terraformrc",
			content: "credentials \"a.example\" { token = 99999999999999999999999 }",
			want:    []string{"~/.terraformrc: Invalid CLI configuration; number value out of range"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			write(t, home, tt.file, tt.content)
			s, diags := loadQuick(t, []string{"HOME=" + home}, "linux")
			got := formatAll(diags, home)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("diagnostics = %q\nwant %q", got, tt.want)
			}
			for _, d := range got {
				if strings.Contains(d, "SECRET") {
					t.Errorf("diagnostic quotes the token: %s", d)
				}
			}
			if _, _, ok := s.Token("a.example"); ok {
				t.Error("a malformed file gave a token")
			}
		})
	}
}

func TestDeepNesting(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + strings.Repeat(close, n)
	}
	for _, tt := range []struct {
		name, file, content, want string
	}{
		{
			name:    "lists",
			file:    ".terraformrc",
			content: "credentials \"a.example\" {\n  x = " + deep("[", "]", 100000) + "\n}\n",
			want:    "~/.terraformrc:2:70: Invalid CLI configuration; nested deeper than 64 levels",
		},
		{
			name:    "objects",
			file:    ".terraformrc",
			content: "a " + deep("{ b ", "}", 50000),
			want:    "~/.terraformrc:1:257: Invalid CLI configuration; nested deeper than 64 levels",
		},
		{
			name:    "block labels",
			file:    ".terraformrc",
			content: "credentials " + strings.Repeat("a ", 100000) + "{}",
			want:    "~/.terraformrc:1:139: Invalid CLI configuration; nested deeper than 64 levels",
		},
		{
			name:    "JSON objects",
			file:    ".terraform.d/credentials.tfrc.json",
			content: "{\"credentials\": " + deep(`{"a":`, "}", 40000) + "}",
			want:    "~/.terraform.d/credentials.tfrc.json:1:332: Invalid CLI configuration; nested deeper than 64 levels",
		},
		{
			name:    "JSON lists",
			file:    ".terraform.d/credentials.tfrc.json",
			content: "{\"credentials\": " + deep("[", "]", 100000) + "}",
			want:    "~/.terraform.d/credentials.tfrc.json:1:80: Invalid CLI configuration; nested deeper than 64 levels",
		},
		{
			name:    "at the limit",
			file:    ".terraformrc",
			content: "credentials \"a.example\" {\n  token = \"x\"\n  x = " + deep("[", "]", 63) + "\n}\n",
		},
		{
			name:    "brackets in strings and comments",
			file:    ".terraformrc",
			content: "# " + strings.Repeat("[", 1000) + "\n/* " + strings.Repeat("{", 1000) + " */\ncredentials \"a.example\" {\n  token = \"" + strings.Repeat("[", 1000) + "\"\n}\n",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			write(t, home, tt.file, tt.content)
			start := time.Now()
			s, diags := loadQuick(t, []string{"HOME=" + home}, "linux")
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			got := formatAll(diags, home)
			if tt.want == "" {
				if len(got) > 0 {
					t.Errorf("diagnostics = %q", got)
				}
				if _, _, ok := s.Token("a.example"); !ok {
					t.Error("no token")
				}
				return
			}
			if !reflect.DeepEqual(got, []string{tt.want}) {
				t.Errorf("diagnostics = %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestCLIConfigForms(t *testing.T) {
	for _, tt := range []struct {
		name, content string
		token         string // "" for none
	}{
		{"block", `credentials "a.example" { token = "T" }`, "T"},
		{"unquoted label", `credentials a.example { token = "T" }`, "T"},
		{"nested object", `credentials { "a.example" { token = "T" } }`, "T"},
		{"assigned object", `credentials = { "a.example" = { token = "T" } }`, "T"},
		{"trailing comma", `credentials "a.example" { token = "T", }`, "T"},
		{"comments", "# c\n// c\n/* c */\ncredentials \"a.example\" {\n  token = \"T\" # c\n}\n", "T"},
		{"heredoc", "credentials \"a.example\" {\n  token = <<EOT\nT\nEOT\n}\n", "T\n"},
		{"escape", `credentials "a.example" { token = "T\"1" }`, `T"1`},
		{"CRLF", "credentials \"a.example\" {\r\n  token = \"T\"\r\n}\r\n", "T"},
		{"blocks merged", "credentials \"a.example\" { token = \"T\" }\ncredentials \"a.example\" { other = 1 }", "T"},
		{"later block wins", "credentials \"a.example\" { token = \"S\" }\ncredentials \"a.example\" { token = \"T\" }", "T"},
		{"two spellings, the later in sort order wins", "credentials \"a.example\" { token = \"T\" }\ncredentials \"A.example\" { token = \"S\" }", "T"},
		{"other settings", "disable_checkpoint = true\nplugin_cache_dir = \"/x\"\nhost \"a.example\" { services = {} }\ncredentials \"a.example\" { token = \"T\" }", "T"},
		{"number token", `credentials "a.example" { token = 12 }`, ""},
		{"list token", `credentials "a.example" { token = ["T"] }`, ""},
		{"empty token", `credentials "a.example" { token = "" }`, ""},
		{"no token", `credentials "a.example" {}`, ""},
		{"two labels", `credentials "a.example" "b" { token = "T" }`, ""},
		{"JSON", `{"credentials": {"a.example": {"token": "T"}}}`, "T"},
		{"JSON after white space", " \n\t{\"credentials\": {\"a.example\": {\"token\": \"T\"}}}", "T"},
		{"JSON list of objects", `{"credentials": [{"a.example": {"token": "S"}}, {"a.example": {"token": "T"}}]}`, "T"},
		{"JSON host list", `{"credentials": {"a.example": [{"token": "T"}]}}`, "T"},
		{"JSON duplicate key", `{"credentials": {"a.example": {"token": "S"}, "a.example": {"token": "T"}}}`, "T"},
		{"JSON null token", `{"credentials": {"a.example": {"token": null}}}`, ""},
		{"JSON missing comma", "{\n  \"credentials\": {\n    \"a.example\": {\"token\": \"T\"}\n    \"b.example\": {}\n  }\n}\n", "T"},
		{"JSON missing closing braces", `{"credentials": {"a.example": {"token": "T"}`, "T"},
		{"JSON trailing comma", `{"credentials": {"a.example": {"token": "T",}}}`, "T"},
		{"JSON text after the object", `{"credentials": {"a.example": {"token": "T"}}} x`, "T"},
		{"empty file", ``, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fc, diags := parseConfig("f", []byte(tt.content))
			if len(diags) > 0 {
				t.Fatalf("diagnostics: %q", formatAll(diags, ""))
			}
			ft := fc.hosts["a.example"]
			if string(ft.token) != tt.token && tt.token != "" || ft.ok != (tt.token != "") {
				t.Errorf("token %q (ok %v), want %q", string(ft.token), ft.ok, tt.token)
			}
		})
	}
}

func TestCredentialsHelper(t *testing.T) {
	home := t.TempDir()
	write(t, home, ".terraformrc", "credentials_helper \"vault\" {\n  args = [\"--x\"]\n}\ncredentials \"a.example\" { token = \"T\" }\n")
	s, diags := loadQuick(t, []string{"HOME=" + home}, "linux")
	if len(diags) > 0 {
		t.Errorf("diagnostics: %q", formatAll(diags, home))
	}
	want := []string{envSource, "credentials blocks in " + home + "/.terraformrc", `credentials_helper "vault" in ` + home + "/.terraformrc (not run)"}
	if got := s.Sources(); !reflect.DeepEqual(got, want) {
		t.Errorf("Sources = %q\nwant %q", got, want)
	}
	if got := s.Helpers(); !reflect.DeepEqual(got, want[2:]) {
		t.Errorf("Helpers = %q", got)
	}
	if _, _, ok := s.Token("b.example"); ok {
		t.Error("a host without a token got one")
	}
	if tok, _, _ := s.Token("a.example"); tok != "T" {
		t.Errorf("Token = %q", tok)
	}
}

func TestSourcesNameFileProblems(t *testing.T) {
	home := t.TempDir()
	write(t, home, ".terraformrc", "credentials \"a.example\" { token = \"A\" }\ncredentials \"bad host\" { token = \"B\" }\n")
	write(t, home, ".terraform.d/a.tfrc", "credentials \"c.example\" {\n  token = SECRET\n}\n")
	if err := os.Symlink("/dev/zero", filepath.Join(home, ".terraform.d", "b.tfrc")); err != nil {
		t.Fatal(err)
	}
	s, _ := loadQuick(t, []string{"HOME=" + home}, "linux")
	want := []string{
		envSource,
		"credentials blocks in ~/.terraform.d/b.tfrc (not read: Unreadable CLI configuration; not a regular file (it is a character device))",
		"credentials blocks in ~/.terraform.d/a.tfrc (not read: line 2: Invalid CLI configuration; unexpected token)",
		`credentials blocks in ~/.terraformrc (ignored: line 2: Invalid credentials block; the credentials "bad host" block has an invalid host name: idna: disallowed rune U+0020)`,
	}
	var got []string
	for _, x := range s.Sources() {
		got = append(got, strings.ReplaceAll(x, home, "~"))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Sources = %q\nwant %q", got, want)
	}
	if tok, _, _ := s.Token("a.example"); tok != "A" {
		t.Errorf("Token(a.example) = %q, want the valid block's", tok)
	}
}

func TestStoreNeverPrintsTokens(t *testing.T) {
	home := t.TempDir()
	write(t, home, ".terraformrc", `credentials "a.example" { token = "SECRET-FILE" }`)
	write(t, home, ".terraform.d/credentials.tfrc.json", `{"credentials": {"b.example": {"token": "SECRET-JSON"}}}`)
	write(t, home, ".terraform.d/broken.tfrc", `credentials "c.example" { token = "SECRET-BROKEN" } }`)
	s, diags := loadQuick(t, []string{"HOME=" + home, "TF_TOKEN_c_example=SECRET-ENV"}, "linux")
	var texts []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T"} {
		texts = append(texts, fmt.Sprintf(verb, s), fmt.Sprintf(verb, *s), fmt.Sprintf(verb, struct{ s Store }{*s}), fmt.Sprintf(verb, []*Store{s}))
	}
	texts = append(texts, s.String(), s.GoString(), fmt.Sprint(s), fmt.Sprintln(*s))
	texts = append(texts, formatAll(diags, "")...)
	texts = append(texts, s.Sources()...)
	for _, x := range texts {
		if strings.Contains(x, "SECRET") || strings.Contains(strings.ToLower(x), "534543524554") { // "SECRET" in hex
			t.Errorf("printed a token: %s", x)
		}
	}
	if got, want := s.String(), fmt.Sprintf(`credentials.Store{3 hosts with a token [a.example b.example c.example], sources ["TF_TOKEN_* environment variables" "%[1]s/.terraform.d/credentials.tfrc.json" "credentials blocks in %[1]s/.terraform.d/broken.tfrc (not read: line 1: Invalid CLI configuration; expected: IDENT | STRING | ASSIGN | LBRACE got: RBRACE)" "credentials blocks in %[1]s/.terraformrc"]}`, home); got != want {
		t.Errorf("String = %s\nwant %s", got, want)
	}
	var nilStore *Store
	if got := fmt.Sprint(nilStore); got != "credentials.Store(nil)" {
		t.Errorf("nil Store prints %q", got)
	}
}

func TestLoadReadsTheProcessEnvironment(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TF_CLI_CONFIG_FILE", "")
	t.Setenv("TERRAFORM_CONFIG", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("TF_TOKEN_reg_example", "from-env")
	s, diags := Load(os.Environ())
	if len(diags) > 0 {
		t.Errorf("diagnostics: %q", formatAll(diags, home))
	}
	if tok, src, _ := s.Token("reg.example"); tok != "from-env" || src != "TF_TOKEN_reg_example" {
		t.Errorf("Token = %q, %q", tok, src)
	}
	if got := s.Hosts(); !slices.Contains(got, "reg.example") {
		t.Errorf("Hosts = %q", got)
	}
}
