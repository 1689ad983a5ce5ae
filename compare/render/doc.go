// Package render writes the report of a compare run (a *compare.Report)
// for people and programs; compare itself never prints.
//
// Render is the one entry point:
//
//	render.Render(w, render.FormatText, report, render.Options{})
//
// It writes one of four formats (Formats), one for each place a report
// is read, and with a drift from a baseline a fifth, sarif, the drift
// alone for code scanning (DriftFormats):
//
//   - text: a terminal, 80 columns, the answer first (the case people
//     argue about, a prerelease of the next major under "~>", in words;
//     how each policy differs from the reference, with witnesses in words,
//     a count several rows share explained once), then the case shapes
//     that split the policies, the agreement matrix and the classes; long
//     lists are cut and each cut says what it left out.
//   - markdown: a pull-request comment or a CI step summary, kept under
//     the size of a comment, one collapsible section per diverging pair.
//   - json: machines; the report whole, written as it is encoded
//     (compare.Report.WriteJSON), and read back by compare.DecodeReport.
//   - html: a browser; one self-contained page (inline styles, no
//     script, nothing fetched) with a table of contents, the summary and
//     the splits first, the agreement matrix as a heatmap whose cells
//     link to their pair's classes, each pair's classes and the long
//     tables folded under <details>, and each note said once.
//
// Options holds the options of every renderer of prerel (report.Options):
// ShowAll lists everything the text and Markdown reports cut, and
// Options.Drift begins the report with the drift from a baseline.
// Options.Group groups the policies of the Markdown and HTML reports
// (the policy list, a group column in the summary, the agreement matrix
// by group) and marks today's rule and the reference; prerel's CLI groups
// them as package catalogue does, and the package imports no catalogue.
// A report whose PolicyErrors names policies that failed on some cases
// tells them, with their errors, in a section before the summary;
// PolicyErrorsOf fills it for the policies written in HCL. AppendMarkdown
// appends the Markdown report to a CI step summary; Progress tells a
// run's progress on a terminal. A report tells its reader how to see
// what it leaves out only in the words of Options.Hints, which the
// program that shows it supplies (prerel's CLI passes its flags); the
// package names no flag of its own.
package render
