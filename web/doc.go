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
// The verdict table groups its columns as package catalogue groups the
// policies (installers, updaters, readers, libraries, proposals, your own; the
// groups come from web/playground's answers) and marks the column of
// today's rule. Of more than 20 versions, it shows the versions the
// policies disagree on first, then others up to 20, as prerel check does,
// and every version in the order given on request; it scrolls within 70%
// of the screen's height. A verdict clicked is explained right below the
// table, scrolled into view.
//
// The page's state (the constraint, the versions or the corpus history
// they come from, the chosen policies, the pasted HCL, whether every
// version is shown and the cell being explained) is kept in the URL's
// fragment, so a link opens the same
// view; a state longer than a few kilobytes is compressed (deflate,
// base64url) into one parameter, and a state that decompresses to more
// than 1 MiB is refused. Every text from input or from a registry is put
// into the page as text (textContent), never as markup; the timeline SVG,
// which package internal/timeline writes with every input escaped, is
// parsed as an XML document of its own and imported. Text from input
// is shown printable, as prerel's CLI prints it (package
// internal/printable): a control or format character, such as the
// bidirectional override U+202E, is written as its Go escape ("\u202e"),
// in the tables, the explanation and the messages; put into the
// constraint field or the versions box (from a registry or a link), it
// is escaped there too, and judged as it then reads. Pasted HCL is run
// as it is, and a note names the first line that holds such a
// character. The page carries a
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
// otherwise, and kind=module or kind=provider says which outright
// (ParseQuery). The answer is
//
//	{"address": ADDR, "kind": "provider", "canonical": "registry.terraform.io/hashicorp/aws",
//	 "versions": [...], "from": URL, "warnings": [...]}
//
// and an error is {"error": MESSAGE} with the status that fits: 400 for
// an address that cannot be read, 403 for a request the server refuses
// (see below), 404 for an address the registry does not know, 405 for a
// method other than GET or HEAD, 502 when the registry fails (a request
// that times out included), 503 when no lookups are offered or the
// queue is full, 504 when the lookup's deadline passes (prerel serve's
// --registry-deadline). The message of a failed lookup says only what
// failed; why (the URLs tried, what a host answered) goes to the
// server's log (Options.Log), so that a page learns nothing of the
// hosts behind the server. Versions come from the registry.Source the
// caller gives (prerel serve: the registry client of prerel resolve,
// with its flags); when the page finds no API (a static host), it
// offers the corpus histories only and says so.
//
// # Who may use the server
//
// The server runs on the user's machine, with the user's registry
// credentials, and any web page the user opens can send it requests.
// So Handler answers only its own page:
//
//   - A request whose Host header is not one of the server's names
//     (Options.AllowHost; by default a loopback name, localhost,
//     127.0.0.1 or [::1]) is answered 421 and nothing else, so that a
//     page whose name was rebound to 127.0.0.1 (DNS rebinding) reads
//     neither the page nor the API.
//   - An API request from a page of another site or origin (its
//     Sec-Fetch-Site is neither same-origin nor none, or its Origin is
//     not the server's) is refused, 403.
//   - A lookup must carry the token of the run (Options.Token, random by
//     default) in the X-Prerel-Token header. Handler writes it into the
//     meta element prerel-api-token of index.html, which it serves with
//     Cache-Control: no-store; a page of another origin cannot read it,
//     nor send the header without a CORS preflight, which the server
//     refuses.
//   - A lookup goes only to a registry host Options.AllowRegistry allows
//     (prerel serve: registry.terraform.io, registry.opentofu.org, the
//     hosts of --registry-url and of --allow-registry), 403 otherwise;
//     prerel serve's registry client (GuardedClient) connects only to
//     public addresses, checked after each name is resolved, for service
//     discovery, the URLs it names and every redirect, but to the hosts
//     of --registry-url.
//   - At most MaxLookups lookups run at once, at most Options.MaxQueue
//     (DefaultMaxQueue) wait for a turn, each at most Options.QueueWait
//     (DefaultQueueWait); a lookup beyond is answered 503 with a
//     Retry-After. A lookup whose address cannot be read is answered
//     without waiting.
//
// Serve is prerel serve's server: Handler on an address, with the host
// policy of that address (ServerHosts), a warning when other machines can
// reach it, bounded connections, and a shutdown that lets the requests
// under way finish; BuildTemp builds the site it serves when none is
// given.
//
// Every file but index.html goes gzip-compressed to a client that
// accepts it (Vary: Accept-Encoding), compressed once and again only when
// the file changes: prerel.wasm, 14.8 MB, is then 3.3 MB. Compressing
// it takes a few seconds; Options.Precompress starts at once.
package web
