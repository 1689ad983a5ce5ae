// Package cmdpolicy makes a policy of an external command: a rule written
// in any language (Python, JavaScript, Rust, a shell script) judges the
// cases, and prerel uses it like any other policy.
//
// New returns a *Policy, an engine.Policy. Its command is started once,
// on the first case it is asked to judge, and serves every case until
// Close; New only checks that the program exists and can be executed, so
// that a policy that is never used starts nothing. Compile never starts
// the command: it returns a Matcher bound to the constraint, and the
// Matcher's Match and MatchAll (engine.BatchMatcher) send the cases.
//
// # Protocol
//
// prerel writes cases to the command's standard input and reads the
// answers from its standard output. The standard error is the command's
// own: it goes to Options.Stderr, and its last few KiB go into the error
// when the command fails.
//
// A case is one line: the constraint, a tab, the version, a line feed.
//
//	>= 1.0.0-beta<TAB>1.0.0-rc.1<LF>
//
// The constraint and the version are sent byte for byte, as prerel was
// given them: no trimming, no parsing, no normalisation. Judging them,
// refusing them included, is the command's job. Both are UTF-8 text.
// A case that cannot be sent this way is never sent: a constraint or
// version that contains a tab, a line feed or a carriage return (which
// line readers such as Python's and Node's take for a line end), or that
// is not valid UTF-8, or a case whose line would be longer than MaxLine
// bytes, is Invalid without asking the command, and the reason says
// which of these it is.
//
// The command answers every case with exactly one line, in the order of
// the cases:
//
//	VERDICT<LF>
//	VERDICT<TAB>REASON<LF>
//
// VERDICT is allow, reject or invalid, in lower case; invalid means the
// command does not accept the constraint or the version (it is never a
// silent reject). REASON, optional, is anything up to the line feed, tabs
// included. prerel shows it next to the verdict with control characters
// (tabs too) escaped as in a Go string and invalid UTF-8 replaced,
// clipped to engine.MaxReason bytes (its start and its end kept): only
// its first kilobyte or so is worth writing. One carriage return before
// the line feed is dropped, so a command that writes CR LF line ends
// works. An answer line may be at most MaxLine bytes long, without its
// line end.
//
// Cases come in batches of at most MaxBatch cases (and about 256 KiB of
// text, or a single case when it is longer): prerel writes a batch,
// then reads its answers, and writes the next batch only when every case
// of this one is answered. The command cannot tell where a batch ends, so
// it must flush its output after each answer, or at least every time it
// is about to wait for more input. An answer held in an output buffer is
// an answer prerel never sees: the command hangs, and Options.Timeout
// stops it. Python's standard output to a pipe is block buffered: write
// print(..., flush=True) or run python3 -u. C's stdio needs fflush(stdout).
// Node.js writes to a pipe at once, and Rust's stdout is line buffered.
//
// The end of the standard input (EOF) means the run is over: the command
// must then exit with status 0, within Grace, having written nothing more.
//
// A correct command in Python, which admits a version when a rule in
// judge says so:
//
//	import sys
//	for line in sys.stdin:
//	    constraint, version = line.rstrip("\n").split("\t")
//	    verdict, reason = judge(constraint, version)  # the rule
//	    print(verdict, reason, sep="\t", flush=True)
//
// testdata/policycmd/prerelease_named.py in the module is a whole one:
// SemVer precedence, Terraform's constraint syntax and the rule "a
// prerelease only when the constraint names one", in about fifty lines.
//
// # Environment
//
// A command gets a small environment: the variables of prerel's that
// BaseEnv names (PATH, HOME, LANG, TMPDIR), when they are set, and those
// that Options.Env names (prerel's --policy-cmd-env), and no other. The
// credentials prerel reads from its own environment (TF_TOKEN_*,
// GITHUB_TOKEN, the path of the CLI configuration in TF_CLI_CONFIG_FILE)
// never reach a command unless a name says so: a rule needs none of
// them. CredentialName tells the names of credentials, which prerel's
// --policy-cmd-env refuses unless --policy-cmd-allow-credentials is
// given too.
//
// # Failures
//
// A command that breaks the protocol is a failure, never a deadlock and
// never a silent verdict:
//
//   - it cannot be started (New: not found, not executable; or the start
//     itself fails);
//   - it exits, or closes its standard output, before answering every
//     case of a batch (the error gives its exit status and the case with no
//     answer), or exits between batches;
//   - it answers with a line that is not a verdict, or a line longer than
//     MaxLine;
//   - it gives no answer for Options.Timeout: the whole batch has that
//     long (the error names the case it was waiting for);
//   - it writes more lines than it was asked for. A line that arrives
//     while no case is waiting for one is found when the next batch
//     starts. One that arrives late enough to be taken for the answer to
//     the next case shifts the answers after it, but leaves a line over
//     at the end: Close reads the output to its end, so a command that
//     writes more lines in all than it was asked for is always reported,
//     by Close at the latest;
//   - after its input is closed, it writes more, exits with another status
//     than 0, or does not exit within Grace.
//
// Every failure is an *Error naming the policy, the command, what went
// wrong, and the end of the command's standard error. The command's whole
// process group is then killed. The cases of the batch that failed which
// the command answered before it failed keep their answers; every other
// case of that batch and every case judged afterwards is Invalid with the
// error as its reason (NotJudged tells them from answers), and Err
// returns it. A program that uses the policy calls Close after its
// last case and treats its error, the same as Err then returns, as the
// failure of the run: answers given before a failure that is found late
// (extra lines) may be misplaced.
//
// # Stopping
//
// A command runs in a process group of its own, which Close kills once the
// command has exited or its Grace is over, and which a failure kills at
// once. On Linux, the command also gets SIGKILL when prerel dies, even by
// SIGKILL (PR_SET_PDEATHSIG; the signal goes to the command itself, not
// to what it started).
//
// A process that leaves the command's group (setsid, as a daemon does) is
// out of reach of the group's kill. A program whose only children are its
// policy commands, such as prerel, calls AdoptOrphans first: on Linux it
// becomes a child subreaper, so that such a process becomes its child
// once the command that started it has exited, instead of init's. StopAll,
// called when the program is about to exit, normally or on a signal, kills
// the process group of every running command, then every child of the
// program, round after round, until none is left. Outside Linux, StopAll
// kills the process groups only. A process started for a command by
// something else (a service manager, a daemon) is never the program's
// descendant, and nothing here can stop it. StopOnSignal makes SIGINT
// and SIGTERM call StopAll, then exit with the status of a program
// killed by the signal.
//
// # Command lines
//
// A command given as one line (prerel's --policy-cmd NAME=COMMAND) is
// split into its words by SplitCommand, as a POSIX shell splits the words
// of a simple command, but without a shell: blanks and line feeds
// separate words; 'single quotes' keep everything; "double quotes" keep
// everything but a backslash before $, `, ", \ or a line feed; a
// backslash outside quotes keeps the next character, and a backslash
// before a line feed joins the lines.
//
// Nothing is expanded: *, ~ and {a,b} are passed as they are written. What
// a shell would expand or run instead of passing it on is an error that
// says so, never passed on silently: a $NAME, ${...}, $(...), `...` or
// $((...)) outside single quotes, an operator (|, ;, &, <, >, parentheses)
// outside quotes, a # that starts a word outside quotes (a comment, that
// a shell would drop with the rest of its line), a quote that is not
// closed, a backslash that ends the line, and a line that is not valid
// UTF-8. Before SplitCommand, a $ and
// a leading # were passed as they were written, and an operator was a
// part of a word; put them in single quotes to pass them on.
//
// The line is read by the shell parser of mvdan.cc/sh (package syntax, in
// POSIX mode; the parser of shfmt), so that the quoting rules are a
// shell's and not an approximation of them. Its shell.Fields is not used:
// it expands variables from the environment, and ~ and braces, so prerel
// would run another command than the one written, and the shell that
// prerel was started from has expanded what the user meant to expand
// already. github.com/google/shlex, the other common splitter, is not
// kept up and does not follow a POSIX shell (a backslash in double quotes
// escapes any character; an operator is part of a word).
//
// # A run's sources
//
// Sources are the policies a run adds to the registered ones, as prerel's
// --policy-file and --policy-cmd give them: files of policy blocks in HCL
// (package hclpolicy), whose command blocks become policies of this
// package run in the file's directory, and commands named one by one
// (ParseNamed reads NAME=COMMAND). Sources.Load registers them on a copy
// of the registry and returns it with a context done as soon as one of
// the commands fails; Loaded.Close stops them all and returns the first
// failure.
//
// # Concurrency
//
// A Policy is safe for concurrent use. Its command is one process that
// answers one batch at a time: concurrent calls wait for each other, and
// every answer is matched to its case.
package cmdpolicy
