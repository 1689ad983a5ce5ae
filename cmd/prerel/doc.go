// Command prerel puts prerelease-matching policies for version constraints
// side by side.
//
// Usage:
//
//	prerel policies [flags]
//	         list the registered policies and their rules
//	prerel check    [flags] CONSTRAINT [VERSION...]
//	         judge versions against a constraint with every policy
//	prerel eval     [flags] < CONSTRAINT<TAB>VERSION lines
//	         batch mode for scripts: one verdict line per input line
//	prerel select   [flags] CONSTRAINT [VERSION...]
//	         the version each policy would install
//	prerel explain  --policy P [flags] CONSTRAINT VERSION
//	         one policy's reasoning, comparator by comparator
//	prerel compare  [flags]
//	         differential report: where policies agree and diverge, with witnesses
//	prerel merge    [flags] PARTIAL...
//	         the whole run's report from the partial reports of compare --shard
//	prerel resolve  [flags] DIR
//	         each module and provider in DIR: its policy's version next to today's
//	prerel pin      [flags] DIR
//	         override files that make init install what the chosen policies select
//	prerel impact   --policy P [flags] [--domain corpus | --domain DIR...]
//	         what would install differently for real module calls under policy P
//	prerel serve    [flags]
//	         the playground: every policy in the browser, at http://127.0.0.1:8080
//	prerel version
//	         prerel's version (also: prerel --version)
//
// 'prerel --help' and 'prerel COMMAND -h' (or 'prerel help COMMAND') write
// the help to stdout and exit 0. A flag error is printed once, on stderr,
// followed by a line naming the command's help.
//
// Flags are read by github.com/spf13/pflag: --name VALUE or --name=VALUE,
// and --name alone for a flag that is on or off; -name, as earlier
// versions of prerel read it, is read as --name. Flags may come before,
// between or after the arguments. "--" ends the flags: every argument after it is an argument, even one that starts with
// "-" (prerel check -- '>= 1.0' 1.0.0). A list flag such as --policies may
// be repeated, and adds to the list; a name given twice, in one flag or
// across several, is an error, and so is a second --module-policy or
// --provider-policy for the same name or a second --registry-url for the
// same host. A duration, such as --timeout, is written with its unit:
// 10s, 1m30s.
//
// eval reads CONSTRAINT<TAB>VERSION lines, each at most 1 MiB, and writes
// one line for each, in order, the constraint and version echoed byte for
// byte: a line ends at "\n", and one "\r" before it is dropped, no more.
// Empty input gives empty output and exit status 0: every line read is
// answered, so a caller can compare the counts. In JSON, a constraint or
// version that is not valid UTF-8 is a string with each invalid byte
// replaced by U+FFFD, and also comes exactly, in standard base64, as
// constraint_base64 or version_base64. Reasons longer than 1 KiB are cut to
// their start and end, and a parse error quotes at most the start and the
// end of a long input, with its length.
//
// A --versions-file is a regular file or a pipe (read once), of at most
// 64 MiB, with lines of at most 1 MiB; any other device is refused, and
// /dev/null reads as empty. A file that lists no versions is an error.
//
// Text from outside (arguments, file lines) is printed with control
// characters escaped, in the text reports and in errors.
//
// A policy command (--policy-cmd, or a command block of a --policy-file)
// gets PATH, HOME, LANG and TMPDIR of prerel's environment, and the
// variables --policy-cmd-env names, one name a flag. A pattern (a name
// with *, ? or [) is refused, and so is the name of a credential unless
// --policy-cmd-allow-credentials is given: a name that starts with
// TF_TOKEN_, TF_CLI_CONFIG_FILE, TERRAFORM_CONFIG, or one that contains
// TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL, API_KEY, APIKEY,
// PRIVATE_KEY or ACCESS_KEY, in any case (exit status 2; the error names
// the variable, never its value).
//
// The policies are those of package catalogue, in its order.
//
// A policy that fails is treated alike by every command that judges
// cases with policies. A policy command (--policy-cmd, or a command block
// of a --policy-file) that fails, while it judges cases or when it is
// stopped (it exits, hangs, answers out of turn, or exits with an error
// once its input is closed), leaves verdicts that are not its answers:
// the command prints no report and writes no file, whatever else the run
// found; stderr names the failure, and the exit status is 2. (eval, which
// answers line by line as it reads, keeps the lines answered before the
// failure and writes no line after it.) A policy in HCL (of a
// --policy-file or of prerel.hcl) whose expression fails on a case
// judges that case invalid, and the report shows it so: the report is
// printed, then the failures, grouped, on stderr; no file is written, and
// the exit status is 2.
//
// Exit status:
//
//	0  success
//	1  a finding: the run differs from the baseline (compare --baseline,
//	   merge --baseline), or a module or provider has no admissible
//	   version (resolve, pin), or the override files on disk are not
//	   what pin would write (pin --check), or a call falls in a class
//	   --fail-on names (impact)
//	2  bad usage or bad input: a flag, an argument, a constraint or version
//	   the engine cannot parse, a file that does not exist or is malformed,
//	   a configuration error, a policy in HCL or a policy command that
//	   failed on a case
//	3  an outside failure: a registry that cannot be reached or answers an
//	   error, a file that cannot be read or written (permission, I/O), a
//	   failed write to standard output
//	4  an internal error: a bug in prerel, reported on stderr as
//	   "internal error" with a stack trace (a fatal error of the Go
//	   runtime, such as running out of memory, exits 2 instead)
//	130  stopped by SIGINT (143: by SIGTERM) in a command that takes
//	     policies: its policy commands are stopped, and no file is written
//
// A run with problems of several kinds names every one on stderr and exits
// with the most severe status, in the order 4, 2, 3, 1: resolve, whose
// findings include a locked provider version its chosen policy does not
// admit, exits 3 when some versions could not be listed, whatever it found.
package main

//go:generate go test -run TestDocCommandList -update .

// Adding a command
//
// Each command is defined once, by a command value (main.go) in the file
// of the command: its name, the rest of its usage line, a one-line
// summary, its long help and a function that defines its flags and
// returns its run function. 'prerel help', 'prerel help NAME', 'prerel
// NAME -h' and the command list above are made from it; go generate
// rewrites the list, and TestDocCommandList fails while it is stale.
//
// To add a command, copy the pattern of select.go, as pin.go does:
//
//   - write pin.go with a pinCommand value: name "pin", args such as
//     "[flags] DIR", the summary and the help; policySources: true when
//     it runs policies (--policy-file, --policy-cmd, --policy-cmd-env,
//     --policy-timeout);
//     its flags function defines the flags with the shared definitions
//     of flags.go (addPolicies, addFormat with the formats the report's
//     renderer declares, addShowAll, the version source flags of
//     resolveFlags) and its own, then returns the run function (a
//     runFunc), which checks the arguments, calls the library and
//     returns its output: the report, rendered by the renderer beside it
//     (report.Render's shape, with renderOptions), the files to write
//     once the run has succeeded, and the finding it ends with. The
//     runner (runWithPolicies) writes it the same way for every command,
//     and decides what a policy failure leaves; a run function stays
//     short, and what is not the command line's goes to the library;
//   - add &pinCommand to commands in main.go, where the list's order is
//     set;
//   - run go generate ./cmd/prerel, and add a script of its use to
//     testdata/script (see TestScripts).
