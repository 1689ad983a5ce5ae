package main

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/web"
)

// serveCommand is prerel serve.
var serveCommand = command{
	name:    "serve",
	args:    "[flags]",
	summary: "the playground: every policy in the browser, at http://127.0.0.1:8080",
	help:    serveHelp,
	flags:   serveFlags,
}

// serveHelp is the help text of prerel serve.
const serveHelp = `Serve prerel's playground at http://ADDR/: a page that runs every policy,
and policies written in HCL, in the browser (prerel compiled to WebAssembly),
with each verdict, explanation, selection and the timeline; its link holds
the whole view. The page also asks this server for a module's or provider's
versions (GET /api/versions?address=ADDR), which it looks up in the registry
with the registry client and flags of prerel resolve (or in --index FILE).

Only the page this server serves may use it: a request must name the
server by the host and port it listens on (127.0.0.1, localhost, [::1], or
the name given with --addr), an API request from a page of another origin
is refused, and a lookup must carry the random token of this run, which the
served page holds. Lookups go only to registry.terraform.io,
registry.opentofu.org, the hosts of --registry-url and those --allow-registry
names, and never to a host named by an IP address or to a loopback, private
or link-local address (but those --registry-url names); a failed lookup's
detail is written to stderr, not to the page. At most 4 lookups run at once
and 16 wait, each at most 20s; more are answered 503 with Retry-After.

The page is served from --dir DIR, a site web/build.sh built. Without
--dir, prerel builds it from its source into a temporary directory: run it
within prerel's source, with the Go toolchain on PATH. Ctrl-C (SIGINT) or
SIGTERM stops the server.`

// serveStarted, when set (by tests), is called with the address the
// server listens on once it accepts connections.
var serveStarted func(addr string)

// serveFlags defines the flags of prerel serve and returns its run,
// which serves until SIGINT or SIGTERM.
func serveFlags(fs *flagSet) runFunc {
	run := serveRun(fs)
	return streamed(func(e *env, args []string) error {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return run(ctx, e, args)
	})
}

// serveRun defines the flags of prerel serve and returns the function
// that serves until ctx is done, then shuts the server down, letting the
// requests under way finish for a few seconds.
func serveRun(fs *flagSet) func(ctx context.Context, e *env, args []string) error {
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (port 0: any free port); a host that is\nnot loopback lets other machines in")
	dir := fs.String("dir", "", "serve the site in `DIR`, as web/build.sh writes it (default: build\nit from prerel's source into a temporary directory)")
	var allow []string
	stringsVar(fs, &allow, "allow-registry", "HOST", " ", appendTo, "also look versions up on the registry `HOST` (repeatable); by default\nonly registry.terraform.io, registry.opentofu.org and the hosts of\n--registry-url")
	var vf resolveFlags
	vf.addVersionSourceFlags(fs)
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) != 0 {
			return usagef("serve takes no arguments, got %q", args[0])
		}
		if _, _, err := net.SplitHostPort(*addr); err != nil {
			return usagef("--addr %s: %v: expected HOST:PORT, such as 127.0.0.1:8080", printable.String(*addr), err)
		}
		lookups, err := serveVersions(e, &vf, allow)
		if err != nil {
			return err
		}
		site, cleanup, err := serveSite(ctx, e, *dir)
		defer cleanup()
		if err != nil {
			return err
		}
		err = web.Serve(ctx, web.ServeOptions{Addr: *addr, Site: site, Lookups: lookups, Deadline: vf.deadline,
			Stdout: e.stdout, Stderr: e.stderr, Prefix: "prerel serve", Started: serveStarted})
		return failure(err)
	}
}

// serveVersions returns what the flags say of the lookups: their source,
// the index or a registry, and the registry hosts a lookup may ask
// (web.Lookups).
func serveVersions(e *env, vf *resolveFlags, allow []string) (web.Options, error) {
	if vf.index != "" && vf.urls.Given() {
		return web.Options{}, usagef("--index and --registry-url cannot be used together")
	}
	if vf.index != "" && len(allow) > 0 {
		return web.Options{}, usagef("--index and --allow-registry cannot be used together: the index is looked up for every host")
	}
	if vf.timeout <= 0 {
		return web.Options{}, usagef("--timeout must be positive")
	}
	for _, h := range allow {
		if _, err := web.RegistryHost(h); err != nil {
			return web.Options{}, usagef("--allow-registry %s: %v", printable.String(h), err)
		}
	}
	src, err := vf.versionsIn(e, "prerel serve", "", false)
	if err != nil {
		return web.Options{}, err
	}
	lookups, err := web.Lookups(src, allow)
	return lookups, usage(err)
}

// serveSite returns the site to serve: dir, checked, or, without dir, a
// site built from prerel's source into a temporary directory, which
// cleanup removes.
func serveSite(ctx context.Context, e *env, dir string) (site fs.FS, cleanup func(), err error) {
	cleanup = func() {}
	if dir != "" {
		fi, err := os.Stat(dir)
		if err != nil {
			return nil, cleanup, inputError(fmt.Errorf("--dir: %w", err))
		}
		if !fi.IsDir() {
			return nil, cleanup, usagef("--dir %s is not a directory", printable.String(dir))
		}
		site = os.DirFS(dir)
		if err := web.CheckSite(site); err != nil {
			return nil, cleanup, usagef("--dir %s: %v, then pass its output directory (web/dist by default)", printable.String(dir), err)
		}
		return site, cleanup, nil
	}
	root, err := web.FindModule(".")
	if err != nil {
		return nil, cleanup, usagef("no --dir, and the page cannot be built here: %v. Build the site with web/build.sh in prerel's source and pass --dir DIR (web/dist by default)", err)
	}
	site, cleanup, err = web.BuildTemp(ctx, root, e.stderr, "prerel serve")
	return site, cleanup, failure(err)
}
