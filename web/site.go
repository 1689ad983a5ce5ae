package web

import (
	"bufio"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/prerel/prerel/internal/safefile"
)

//go:generate sh build.sh dist

// The files of a built site.
const (
	// IndexFile is the page.
	IndexFile = "index.html"
	// WasmFile is web/wasm compiled to WebAssembly.
	WasmFile = "prerel.wasm"
	// WasmExecFile is the Go runtime's loader, from the toolchain that
	// compiled WasmFile.
	WasmExecFile = "wasm_exec.js"
)

// SiteFiles are the files of a built site, all in one directory.
var SiteFiles = []string{IndexFile, "app.js", "worker.js", "style.css", WasmFile, WasmExecFile}

// ModulePath is the path of the module whose web/wasm Build compiles.
const ModulePath = "github.com/prerel/prerel"

//go:embed static/index.html static/app.js static/worker.js static/style.css
var static embed.FS

// Static returns the page's own files: index.html, app.js, worker.js and
// style.css.
func Static() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded directory always exists
	}
	return sub
}

// CheckSite reports the first file of SiteFiles that site lacks, or that
// is not a regular file, with what to do about it.
func CheckSite(site fs.FS) error {
	for _, name := range SiteFiles {
		fi, err := fs.Stat(site, name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("the site has no %s: build it with web/build.sh", name)
		case err != nil:
			return fmt.Errorf("the site's %s: %w", name, err)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("the site's %s is not a regular file", name)
		}
	}
	return nil
}

// BuildOptions tunes Build. The zero BuildOptions is ready to use.
type BuildOptions struct {
	// ModuleDir is the root of the module's source; "" means the module
	// found from the current directory (see FindModule).
	ModuleDir string
	// Go is the go command; "" means "go" on PATH.
	Go string
}

// Build writes a site to outDir, creating it if need be: the page's
// files, web/wasm compiled with GOOS=js GOARCH=wasm in the module's root,
// and that toolchain's wasm_exec.js (from $GOROOT/lib/wasm, or
// $GOROOT/misc/wasm before Go 1.24). Each file is written whole or not
// at all. An error says which step failed, with go's output.
func Build(ctx context.Context, outDir string, opt BuildOptions) error {
	if outDir == "" {
		return errors.New("build the playground: no output directory")
	}
	dir := opt.ModuleDir
	if dir == "" {
		var err error
		if dir, err = FindModule("."); err != nil {
			return fmt.Errorf("build the playground: %w", err)
		}
	}
	goCmd := opt.Go
	if goCmd == "" {
		goCmd = "go"
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fmt.Errorf("build the playground: %w", err)
	}
	out, err := filepath.Abs(outDir)
	if err != nil {
		return fmt.Errorf("build the playground: %w", err)
	}

	tmp, err := os.MkdirTemp(out, ".prerel-wasm-*")
	if err != nil {
		return fmt.Errorf("build the playground: %w", err)
	}
	defer os.RemoveAll(tmp)
	wasm := filepath.Join(tmp, WasmFile)
	build := exec.CommandContext(ctx, goCmd, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./web/wasm")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("build the playground: GOOS=js GOARCH=wasm %s build ./web/wasm in %s: %v\n%s", goCmd, dir, err, strings.TrimSpace(string(msg)))
	}
	err = safefile.Write(filepath.Join(out, WasmFile), siteFile, func(w *bufio.Writer) error {
		f, err := os.Open(wasm)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = w.ReadFrom(f)
		return err
	})
	if err != nil {
		return fmt.Errorf("build the playground: %w", err)
	}

	env := exec.CommandContext(ctx, goCmd, "env", "GOROOT")
	env.Dir = dir
	root, err := env.Output()
	if err != nil {
		return fmt.Errorf("build the playground: %s env GOROOT: %v", goCmd, err)
	}
	goroot := strings.TrimSpace(string(root))
	var loader []byte
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		if loader, err = os.ReadFile(filepath.Join(goroot, sub, WasmExecFile)); err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("build the playground: no %s in %s/lib/wasm or %s/misc/wasm: %v", WasmExecFile, goroot, goroot, err)
	}
	if err := safefile.WriteFile(filepath.Join(out, WasmExecFile), siteFile, loader); err != nil {
		return fmt.Errorf("build the playground: %w", err)
	}
	return fs.WalkDir(Static(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(Static(), name)
		if err == nil {
			err = safefile.WriteFile(filepath.Join(out, name), siteFile, data)
		}
		if err != nil {
			return fmt.Errorf("build the playground: %w", err)
		}
		return nil
	})
}

// siteFile is how Build writes each file of the site: atomically, so
// that a server of the directory never sends half a file, with mode 0644,
// and replacing a symbolic link rather than writing where it points.
var siteFile = safefile.WriteOptions{Noun: "site file", Perm: 0o644, ReplaceLinks: true}

// FindModule returns the root of prerel's module source holding dir: the
// nearest directory at or above dir whose go.mod declares ModulePath and
// that has web/wasm. It fails, saying so, when dir is not in that source
// (prerel installed with go install has no source to build from).
func FindModule(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		if modulePath(filepath.Join(d, "go.mod")) == ModulePath {
			if fi, err := os.Stat(filepath.Join(d, "web", "wasm")); err == nil && fi.IsDir() {
				return d, nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("%s is not in the source of %s (no go.mod of that module with web/wasm at or above it)", abs, ModulePath)
		}
		d = parent
	}
}

// modulePath returns the module path a go.mod file declares, "" when it
// cannot be read or declares none.
func modulePath(gomod string) string {
	data, err := safefile.Read(gomod, safefile.ConfigLimit)
	if err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}
