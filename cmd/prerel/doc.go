// Command prerel puts prerelease-matching policies for version constraints
// side by side.
//
// Usage:
//
//	prerel policies                         list the registered policies
//	prerel check CONSTRAINT VERSION...      one verdict per version and policy
//	prerel eval                             batch mode: CONSTRAINT<TAB>VERSION lines on stdin
//	prerel select CONSTRAINT VERSION...     the version each policy would install
//	prerel explain --policy P CONSTRAINT VERSION
//	                                        one policy's reasoning, comparator by comparator
//	prerel compare                          the differential report over a domain
//	prerel resolve DIR                      per module and provider: each policy's version next to today's
//	prerel impact --policy P                what would install differently for real module calls under P
//
// Flags may come before, between or after the arguments. "--" ends the
// flags: every argument after it is an argument, even one that starts with
// "-" (prerel check -- '>= 1.0' 1.0.0).
//
// The policies are those of package catalogue, in its order.
//
// Exit status:
//
//	0  success
//	1  a finding: the run differs from the baseline (compare --baseline),
//	   or a module or provider has no admissible version (resolve),
//	   or a call falls in a class --fail-on names (impact)
//	2  bad usage or bad input: a flag, an argument, a constraint or version
//	   the engine cannot parse, a file that does not exist or is malformed,
//	   a configuration error
//	3  an outside failure: a registry that cannot be reached or answers an
//	   error, a file that cannot be read or written (permission, I/O), a
//	   failed write to standard output
package main
