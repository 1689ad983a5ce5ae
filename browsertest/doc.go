// Package browsertest opens prerel's HTML reports in headless Chromium and
// checks the rendered pages: the heatmap of compare against compare's JSON,
// the timeline marks of check against eval, hostile input shown as text,
// and the load time of a large report. It holds tests only.
//
// The tests need a Chromium binary on PATH (chromium, chromium-browser or
// google-chrome; on Debian, apt-get install chromium) and skip without one.
// With -screenshots they also write PNG screenshots of a heatmap and a
// timeline to testdata/screenshots/ at the repository root:
//
//	go test ./browsertest/ -screenshots
package browsertest
