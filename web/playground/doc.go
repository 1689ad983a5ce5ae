// Package playground answers what prerel's browser playground shows. It is
// plain, portable Go: the same code is compiled to WebAssembly for the page
// (package web/wasm, a thin shim over Call) and runs natively in its tests,
// so that the page's verdicts are the engine's and the catalogue's own.
//
// # What it answers
//
// A Request is the page's state: a constraint, the versions (the text of
// the versions box, one version a line, read as prerel reads a
// --versions-file: surrounding spaces trimmed, blank lines and lines
// starting with # skipped, every other line judged as it is), the chosen
// policies (none chosen: every policy, in 'prerel policies --format json'
// order, then the pasted ones) and optional HCL policy text (policy blocks, as in a
// --policy-file; command blocks are refused, since a page runs no
// command). Evaluate answers with what 'prerel check' and 'prerel select'
// would print for the same inputs (report.NewCheckReport and
// report.NewSelectReport over the same policies), a one-sentence summary,
// the versions grouped by the pattern of their verdicts (package
// internal/rowgroups, as prerel check's HTML page groups them: the
// groups that hold a prerelease the policies disagree on first, each
// said in words), and the timeline SVG of package internal/timeline with
// each policy's selection outlined. Explain answers one cell: report.NewExplainReport,
// as 'prerel explain' does. Info lists the policies and the corpus
// histories, and History returns one history's versions. Every policy
// carries its group (catalogue.Group; catalogue.GroupOwn for a pasted
// one), and Info gives the groups' order (catalogue.Groups) and today's
// rule (catalogue.TodayPolicies), so that the page groups its columns and marks
// today's rule for every policy, those added later included.
//
// Unlike prerel check, a constraint the engine's parser refuses is not an
// error here: the answer names the parser's error in ConstraintError and
// still shows each policy's own verdict, so that what a library accepts
// and the engine does not can be seen. HCL that does not load is reported
// in HCLErrors, and the answer holds the other policies.
//
// # Corpus
//
// The histories are the corpus's versions/*.txt (see package prerel),
// as published (git tags keep their leading "v"), with their kind from
// histories.tsv. They are what the page offers when it is not served by
// prerel serve, which also looks versions up in a registry.
//
// # Limits
//
// Every input is bounded (MaxConstraint, MaxVersionsText, MaxVersions,
// MaxHCL, MaxPolicies); a request beyond a limit is an error that says
// which, and nothing panics on any input: Call turns a panic into an
// error answer.
//
// # The call protocol
//
// Call(method, JSON argument) returns JSON: {"result": ...} or
// {"error": "..."}. The methods are "info" (no argument), "history"
// ({"name": NAME}), "evaluate" (a Request) and "explain" (an
// ExplainRequest). The page speaks only this protocol, so that the
// WebAssembly shim holds no logic of its own.
package playground
