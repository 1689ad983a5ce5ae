package prerel_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	comparerender "github.com/prerel/prerel/compare/render"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/internal/sarif"
	"github.com/prerel/prerel/internal/sarif/sarifschema"
	"github.com/prerel/prerel/internal/sarif/sariftest"
	"github.com/prerel/prerel/pin"
)

// actionFile is the part of action.yml the test reads.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Uses  string            `yaml:"uses"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
	// WorkingDirectory is refused: prerel runs at the repository's root,
	// so that the SARIF log names files as code scanning reads them.
	WorkingDirectory string `yaml:"working-directory"`
}

// actionRun is what running the action's steps gave.
type actionRun struct {
	summary string
	// outputs are the action's outputs, steps the outputs of each step
	// by id.
	outputs map[string]string
	steps   map[string]map[string]string
	// status is each step's exit status by name ("skipped" when its if
	// was false, "uses" for an action it would call).
	status map[string]string
	// with are the inputs of each action called, by step name.
	with map[string]map[string]string
	// failed is whether the job fails.
	failed bool
}

// runAction runs the steps of action.yml as the runner would in
// workspace, a copy of a repository: each run step with bash as the
// runner calls it, ${{ inputs.* }}, ${{ github.action_path }} (this
// repository) and ${{ steps.*.outputs.* }} substituted, with
// GITHUB_STEP_SUMMARY, GITHUB_OUTPUT (one a step) and GITHUB_PATH files,
// and each step's if evaluated; a step that uses another action is
// recorded with its inputs, not run. runnerTemp is RUNNER_TEMP.
func runAction(t *testing.T, workspace, runnerTemp string, inputs map[string]string) actionRun {
	t.Helper()
	var a actionFile
	data, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q, want composite", a.Runs.Using)
	}
	for name := range inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %q", name)
		}
	}
	actionPath, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	files := t.TempDir()
	summary := filepath.Join(files, "summary.md")
	pathFile := filepath.Join(files, "path")
	r := actionRun{outputs: map[string]string{}, steps: map[string]map[string]string{}, status: map[string]string{}, with: map[string]map[string]string{}}
	value := func(expr string) string {
		expr = strings.TrimSpace(expr)
		switch {
		case strings.HasPrefix(expr, "inputs."):
			name := strings.TrimPrefix(expr, "inputs.")
			if v, ok := inputs[name]; ok {
				return v
			}
			in, ok := a.Inputs[name]
			if !ok {
				t.Fatalf("action.yml refers to the undefined input %q", name)
			}
			return in.Default
		case expr == "github.action_path":
			return actionPath
		case strings.HasPrefix(expr, "steps."):
			parts := strings.Split(expr, ".")
			if len(parts) != 4 || parts[2] != "outputs" {
				t.Fatalf("unsupported expression %q", expr)
			}
			return r.steps[parts[1]][parts[3]]
		case strings.HasPrefix(expr, "'") && strings.HasSuffix(expr, "'"):
			return strings.Trim(expr, "'")
		}
		t.Fatalf("unsupported expression %q", expr)
		return ""
	}
	subst := func(s string) string {
		return regexp.MustCompile(`\$\{\{(.*?)\}\}`).ReplaceAllStringFunc(s, func(m string) string {
			return value(m[3 : len(m)-2])
		})
	}
	// cond evaluates an if: terms joined by &&, each a status function
	// or a comparison; without a status function, success() is implied.
	cond := func(expr string) bool {
		if expr == "" {
			return !r.failed
		}
		status := false
		ok := true
		for _, term := range strings.Split(expr, "&&") {
			term = strings.TrimSpace(term)
			switch {
			case term == "always()":
				status = true
			case term == "success()":
				status, ok = true, ok && !r.failed
			case term == "failure()":
				status, ok = true, ok && r.failed
			case strings.Contains(term, "!="):
				l, rr, _ := strings.Cut(term, "!=")
				ok = ok && value(l) != value(rr)
			case strings.Contains(term, "=="):
				l, rr, _ := strings.Cut(term, "==")
				ok = ok && value(l) == value(rr)
			default:
				t.Fatalf("unsupported condition %q", term)
			}
		}
		return ok && (status || !r.failed)
	}
	for i, s := range a.Runs.Steps {
		name := s.Name
		if name == "" {
			name = s.Uses
		}
		if s.WorkingDirectory != "" {
			t.Errorf("step %q sets working-directory: prerel must run at the repository's root", name)
		}
		if !cond(s.If) {
			r.status[name] = "skipped"
			continue
		}
		if s.Uses != "" {
			r.status[name] = "uses"
			r.with[name] = map[string]string{}
			for k, v := range s.With {
				r.with[name][k] = subst(v)
			}
			continue
		}
		if s.Shell != "bash" {
			t.Fatalf("step %q: shell %q, want bash", name, s.Shell)
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q splices an expression into its script: pass it through env", name)
		}
		script := filepath.Join(files, "step.sh")
		if err := os.WriteFile(script, []byte(subst(s.Run)), 0o644); err != nil {
			t.Fatal(err)
		}
		output := filepath.Join(files, "output"+strconv.Itoa(i))
		env := []string{
			"GITHUB_STEP_SUMMARY=" + summary, "GITHUB_OUTPUT=" + output, "GITHUB_PATH=" + pathFile,
			"GITHUB_WORKSPACE=" + workspace, "RUNNER_TEMP=" + runnerTemp, "PATH=" + runnerPath(t, pathFile),
		}
		for k, v := range s.Env {
			env = append(env, k+"="+subst(v))
		}
		// As the runner runs a bash step.
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = workspace
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		switch {
		case err == nil:
			r.status[name] = "0"
		case errors.As(err, &exit):
			r.status[name] = strconv.Itoa(exit.ExitCode())
			r.failed = true
		default:
			t.Fatalf("step %q: %v", name, err)
		}
		t.Logf("step %q: exit %s\n%s", name, r.status[name], out)
		if s.ID != "" {
			r.steps[s.ID] = readOutputs(t, output)
		}
	}
	for name, o := range a.Outputs {
		r.outputs[name] = subst(o.Value)
	}
	if b, err := os.ReadFile(summary); err == nil {
		r.summary = string(b)
	}
	return r
}

// runnerPath is PATH with the directories steps added to GITHUB_PATH
// first, as the runner makes it for the steps that follow.
func runnerPath(t *testing.T, pathFile string) string {
	t.Helper()
	path := os.Getenv("PATH")
	data, err := os.ReadFile(pathFile)
	if err != nil {
		return path
	}
	for _, dir := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if dir != "" {
			path = dir + string(os.PathListSeparator) + path
		}
	}
	return path
}

// readOutputs reads a GITHUB_OUTPUT file of NAME=VALUE lines.
func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			out[k] = v
		}
	}
	return out
}

// copyDir copies the regular files under src to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAction runs the action's steps on sample repositories: one whose
// pins are stale and whose policies drift from a baseline, where the
// check and the gate fail, the summary and the SARIF logs say why and
// both logs are uploaded; one whose pins are up to date, where all
// passes and nothing is uploaded.
func TestAction(t *testing.T) {
	longtest.Skip(t) // builds prerel, runs it and bash as processes
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	runnerTemp := t.TempDir()

	failing := t.TempDir()
	copyDir(t, filepath.Join("testdata", "sarif"), filepath.Join(failing, "infra"))
	copyFile(t, filepath.Join("testdata", "cases.tsv"), filepath.Join(failing, "drift", "cases.tsv"))
	copyFile(t, filepath.Join("testdata", "drift", "cargo-before.json"), filepath.Join(failing, "drift", "baseline.json"))
	r := runAction(t, failing, runnerTemp, map[string]string{
		"working-directory": "infra", "index": "infra/index.json",
		"baseline": "drift/baseline.json", "compare-args": "--domain drift/cases.tsv --policies strict,cargo",
	})
	wantStatus := map[string]string{
		"actions/setup-go@v5": "skipped", "Install prerel": "0", "prerel pin --check": "1", "Drift from the baseline": "1",
		"Upload the check's SARIF": "uses", "Upload the drift's SARIF": "uses",
	}
	checkStatus(t, r, wantStatus)
	if !r.failed {
		t.Error("the job passes, want it to fail")
	}
	for k, v := range map[string]string{"pin-check": "1", "drift": "1", "sarif-file": "prerel.sarif"} {
		if r.outputs[k] != v {
			t.Errorf("output %s = %q, want %q", k, r.outputs[k], v)
		}
	}
	if w := r.with["Upload the check's SARIF"]; w["sarif_file"] != "prerel.sarif" || w["category"] != "prerel-pin-check" {
		t.Errorf("the check's upload has %v", w)
	}
	if w := r.with["Upload the drift's SARIF"]; w["sarif_file"] != "prerel-drift.sarif" || w["category"] != "prerel-drift" {
		t.Errorf("the drift's upload has %v", w)
	}
	for _, want := range []string{"## prerel pin --check `infra`: fails (exit status 1)", "## Check: fails", "`prerel_override.tf`: changed from line 6",
		"## prerel compare", "### Drift: the run differs from the baseline `drift/baseline.json`"} {
		if !strings.Contains(r.summary, want) {
			t.Errorf("the step summary lacks %q:\n%s", want, r.summary)
		}
	}
	// The logs name the files from the repository's root, as code
	// scanning reads them.
	check := readSARIF(t, filepath.Join(failing, "prerel.sarif"))
	if !hasResult(check, "override-file-differs", "infra/prerel_override.tf", 6) || !hasResult(check, "stale-pin", "infra/prerel_override.tf", 7) ||
		!hasResult(check, "installer-ignores-version", "infra/main.tf", 8) {
		t.Errorf("the check's log lacks results at infra/: %+v", check.Results())
	}
	drift := readSARIF(t, filepath.Join(failing, "prerel-drift.sarif"))
	if !hasResult(drift, "baseline-drift", "drift/baseline.json", 6) {
		t.Errorf("the drift's log lacks the pair's change at drift/baseline.json:6: %+v", drift.Results())
	}

	// Up to date: the pins written by the prerel the action installed.
	passing := t.TempDir()
	copyDir(t, filepath.Join("testdata", "pin"), filepath.Join(passing, "infra"))
	pin := exec.Command(filepath.Join(runnerTemp, "prerel-bin", "prerel"), "pin", "--index", "infra/index.json", "infra")
	pin.Dir = passing
	if out, err := pin.CombinedOutput(); err != nil {
		t.Fatalf("prerel pin: %v\n%s", err, out)
	}
	r = runAction(t, passing, runnerTemp, map[string]string{"working-directory": "infra", "index": "infra/index.json", "sarif-file": ""})
	checkStatus(t, r, map[string]string{
		"actions/setup-go@v5": "skipped", "Install prerel": "0", "prerel pin --check": "0", "Drift from the baseline": "skipped",
		"Upload the check's SARIF": "skipped", "Upload the drift's SARIF": "skipped",
	})
	if r.failed || r.outputs["pin-check"] != "0" || r.outputs["drift"] != "" || r.outputs["sarif-file"] != "" {
		t.Errorf("failed %v, outputs %v; want a pass, pin-check 0 and no drift nor SARIF", r.failed, r.outputs)
	}
	if !strings.Contains(r.summary, "## prerel pin --check `infra`: passes") || !strings.Contains(r.summary, "Check: passes") {
		t.Errorf("the step summary:\n%s\nwant the check passing", r.summary)
	}
}

func checkStatus(t *testing.T, r actionRun, want map[string]string) {
	t.Helper()
	for name, w := range want {
		if r.status[name] != w {
			t.Errorf("step %q: %q, want %q", name, r.status[name], w)
		}
	}
	if len(r.status) != len(want) {
		t.Errorf("steps %v, want %v", r.status, want)
	}
}

func readSARIF(t *testing.T, path string) *sariftest.Log {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sarifschema.Check(t, data)
}

// hasResult reports whether the log has a result of rule at line of
// the file whose URI is uri.
func hasResult(l *sariftest.Log, rule, uri string, line int) bool {
	for _, r := range l.Results() {
		for _, loc := range r.Locations {
			p := loc.PhysicalLocation
			if r.RuleID == rule && p.ArtifactLocation.URI == uri && p.Region.StartLine == line {
				return true
			}
		}
	}
	return false
}

// hook is an entry of .pre-commit-hooks.yaml.
type hook struct {
	ID            string   `yaml:"id"`
	Entry         string   `yaml:"entry"`
	Args          []string `yaml:"args"`
	Language      string   `yaml:"language"`
	PassFilenames *bool    `yaml:"pass_filenames"`
	Files         string   `yaml:"files"`
}

// TestPreCommitHooks runs each hook of .pre-commit-hooks.yaml as
// pre-commit would: prerel installed by go install (language golang),
// the entry split into words with the hook's args after it (here the
// sample's --index, as a repository configures them), no file names,
// from the repository's root; and checks which files trigger it.
func TestPreCommitHooks(t *testing.T) {
	longtest.Skip(t) // installs prerel, runs it as a process
	data, err := os.ReadFile(".pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []hook
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	// pre-commit's golang hooks are installed with go install ./... at
	// the repository's root.
	install := exec.Command("go", "install", "./...")
	install.Env = append(os.Environ(), "GOBIN="+bin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	repo := t.TempDir()
	copyDir(t, filepath.Join("testdata", "pin"), repo)
	// A stale tree: nothing pinned yet. Then pinned by prerel pin.
	want := map[string][2]int{"prerel-pin-check": {1, 0}, "prerel-resolve": {0, 0}}
	var ids []string
	for _, h := range hooks {
		ids = append(ids, h.ID)
		if h.Language != "golang" || h.PassFilenames == nil || *h.PassFilenames || h.Files != `\.(tf|tofu|hcl)$` {
			t.Errorf("hook %s: language %q, pass_filenames %v, files %q; want golang, false, \\.(tf|tofu|hcl)$", h.ID, h.Language, h.PassFilenames, h.Files)
		}
		files := regexp.MustCompile(h.Files)
		for name, match := range map[string]bool{"main.tf": true, "a/b.tofu": true, "prerel.hcl": true, "README.md": false, "x.tf.json": false, "main.tfvars": false} {
			if files.MatchString(name) != match {
				t.Errorf("hook %s: files matches %s: %v, want %v", h.ID, name, !match, match)
			}
		}
		if len(h.Args) != 1 || h.Args[0] != "." {
			t.Errorf("hook %s: args %q, want [.]", h.ID, h.Args)
		}
	}
	if strings.Join(ids, " ") != "prerel-pin-check prerel-resolve" {
		t.Fatalf("hooks %v, want prerel-pin-check and prerel-resolve", ids)
	}
	for round := range 2 {
		if round == 1 {
			pin := exec.Command(filepath.Join(bin, "prerel"), "pin", "--index", "index.json", ".")
			pin.Dir = repo
			if out, err := pin.CombinedOutput(); err != nil {
				t.Fatalf("prerel pin: %v\n%s", err, out)
			}
		}
		for _, h := range hooks {
			words := append(strings.Fields(h.Entry), append([]string{"--index", "index.json"}, h.Args...)...)
			cmd := exec.Command(filepath.Join(bin, words[0]), words[1:]...)
			cmd.Dir = repo
			out, err := cmd.CombinedOutput()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != want[h.ID][round] {
				t.Errorf("round %d: hook %s (%q): exit %d, want %d\n%s", round, h.ID, words, code, want[h.ID][round], out)
			}
		}
	}
}

// Every SARIF rule prerel writes is in the rules table of docs/ci.md,
// where each rule's helpUri leads.
func TestSARIFRulesDocumented(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rules := range [][]sarif.Rule{pin.SARIFRules, comparerender.SARIFRules} {
		for _, r := range rules {
			if !strings.Contains(string(data), "| `"+r.ID+"` | "+string(r.Level)+" |") {
				t.Errorf("docs/ci.md has no row for the rule %s (%s)", r.ID, r.Level)
			}
			page, anchor, _ := strings.Cut(strings.TrimPrefix(r.HelpURI, sarif.DocsURI), "#")
			doc, err := os.ReadFile(filepath.Join("docs", page))
			if err != nil {
				t.Errorf("rule %s: helpUri %s: %v", r.ID, r.HelpURI, err)
				continue
			}
			if anchor != "" && !strings.Contains(strings.ToLower(string(doc)), "# "+strings.ReplaceAll(anchor, "-", " ")) {
				t.Errorf("rule %s: helpUri %s: no heading for #%s", r.ID, r.HelpURI, anchor)
			}
		}
	}
}

// The SARIF logs prerel writes are valid SARIF 2.1.0: cmd/prerel's
// tests hold its output to the golden files of cmd/prerel/testdata/sarif
// byte for byte (TestSARIFOutputs, TestSARIFHostileInput), and each of
// them is validated here against the schema. The validator is kept out
// of cmd/prerel's test binary, which runs again as prerel for every
// command of its scripts.
func TestCLISARIFIsValid(t *testing.T) {
	dir := filepath.Join("cmd", "prerel", "testdata", "sarif")
	files, err := filepath.Glob(filepath.Join(dir, "*.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[filepath.Base(f)] = true
		t.Run(filepath.Base(f), func(t *testing.T) {
			readSARIF(t, f)
		})
	}
	for _, name := range []string{"resolve.sarif", "pin-check.sarif", "pin-check-unlisted.sarif", "compare-drift.sarif", "hostile.sarif"} {
		if !seen[name] {
			t.Errorf("%s: no golden log %s", dir, name)
		}
	}
}
