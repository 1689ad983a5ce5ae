// Package web is prerel's browser playground: a static page that runs
// prerel's engine, every policy of the catalogue and pasted HCL policies
// in the browser, compiled to WebAssembly from the same packages (package
// web/playground, through the shim web/wasm). It needs no server: any
// static host serves it. prerel serve serves it locally and also answers
// registry lookups.
//
// # The site
//
// A built site is six files in one directory (SiteFiles): the page's own
// index.html, app.js, worker.js and style.css, embedded here (Static),
// prerel.wasm, compiled from web/wasm, and wasm_exec.js, the Go runtime's
// loader from the toolchain that compiled it. prerel runs in a Web Worker
// (worker.js), so that the page stays responsive while it judges a long
// history. The page loads no other script, font or style and makes no
// request but to these files and, when prerel serve serves it, to /api/;
// every URL it uses is relative, so the site works under any path. Build
// writes a site; web/build.sh (or go generate in this directory) runs
// Build from the command line:
//
//	web/build.sh [DIR]    # default web/dist
//
// Build runs "go build" with GOOS=js GOARCH=wasm in the module's root, so
// it needs the Go toolchain and the module's source; the site it writes
// needs neither.
//
// # The page
//
// The page's state (the constraint, the versions or the corpus history
// they come from, the chosen policies, the pasted HCL and the cell being
// explained) is kept in the URL's fragment, so a link opens the same
// view; a state longer than a few kilobytes is compressed (deflate,
// base64url) into one parameter, and a state that decompresses to more
// than 1 MiB is refused. Every text from input or from a registry is put
// into the page as text (textContent), never as markup; the timeline SVG,
// which package internal/timeline writes with every input escaped, is
// parsed as an XML document of its own and imported. The page carries a
// Content-Security-Policy that allows only its own scripts (and
// WebAssembly), its own style and requests to its own origin. The page
// opened from a file:// URL cannot start its worker, and says to serve
// it over HTTP.
//
// # Serving
//
// Handler serves a built site (exactly the files of SiteFiles, "/" being
// index.html; nothing else of the directory) with the same
// Content-Security-Policy as a header, and the API the page uses when it
// finds it:
//
//	GET /api/status                       {"versions": true} when lookups are offered
//	GET /api/versions?address=ADDR        the versions of a module or provider
//
// ADDR is a module address, NAMESPACE/NAME/SYSTEM or
// HOST/NAMESPACE/NAME/SYSTEM, or a provider address, NAMESPACE/TYPE or
// HOST/NAMESPACE/TYPE; three parts are a provider when the first is a
// host name (it has a "." or a ":", or is localhost) and a module
// otherwise, and kind=module or kind=provider says which outright. The
// answer is
//
//	{"address": ADDR, "kind": "provider", "canonical": "registry.terraform.io/hashicorp/aws",
//	 "versions": [...], "from": URL, "warnings": [...]}
//
// and an error is {"error": MESSAGE} with the status that fits: 400 for
// an address that cannot be read, 404 for one the registry does not know,
// 405 for a method other than GET or HEAD, 502 when the registry fails
// (a request that times out included), 503 when no lookups are offered,
// 504 when the lookup's deadline passes (prerel serve's
// --registry-deadline).
// An address is at most MaxAddress bytes, and at most MaxLookups lookups
// run at once. Versions come from the registry.Source the caller gives
// (prerel serve: the registry client of prerel resolve, with its flags);
// when the page finds no API (a static host), it offers the corpus
// histories only and says so.
package web
