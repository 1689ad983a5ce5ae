// Package browsertest opens prerel's HTML reports and its playground in
// headless Chromium and checks the rendered pages: the heatmap of compare
// against compare's JSON; the timeline marks of check, select and impact
// against eval and their JSON reports; the playground (web/), built to
// WebAssembly and served as prerel serve serves it, whose verdicts,
// selections and pasted HCL policies must equal prerel check's, whose
// link must restore the view, and which must stop an HCL policy that
// runs past its time limit, name it, keep it under Policies to be left
// out and answer the next change, and keep the pasted policies listed
// when an evaluation fails; hostile input shown as text; and the load
// time of a large report. It holds tests only.
//
// The tests need a Chromium binary on PATH (chromium, chromium-browser or
// google-chrome; on Debian, apt-get install chromium) and skip without one.
// With -screenshots they also write PNG screenshots of a heatmap, a
// timeline and the playground to testdata/screenshots/ at the repository
// root:
//
//	go test ./browsertest/ -screenshots
package browsertest
