// Package compare is prerel's differential harness: it runs every case of
// a domain through every chosen policy and reports where the policies
// agree, where they diverge, in which classes of cases, why, and with the
// smallest case of each class as a witness.
//
// # Domains
//
// A Domain streams (constraint, versions) groups:
//
//   - Exhaustive: every constraint of one or two comparators over a small
//     alphabet of numbers and prerelease tags, and every version over it;
//     the scope parameter grows the alphabet (DefaultScope runs in
//     seconds).
//   - Random: cases from the generators of compare/generate, the same
//     stream for the same seed, up to MaxRandomCount of them: each
//     generated constraint against a history of 64 versions generated
//     around it and the other constraints that share the history.
//   - Corpus: real constraint strings x real version histories (see
//     Corpus for the pairing); it also compares selection, the version
//     each policy would install.
//   - File, Lines: a user's own CONSTRAINT<TAB>VERSION lines. A
//     regular file is read again by each run, which fails if its cases
//     changed; a pipe is read once, into memory. The domain is known by a
//     digest of its cases (DomainInfo.Digest), not by the file's name.
//
// DomainSpec is a domain as compare's flags name it, opened by its Open;
// CheckDomainFlags refuses a flag that applies to another kind of domain.
//
// # Running
//
// Run reads each list of versions once per policy (engine.ReadVersions),
// compiles each group's constraint once per policy against it, judges the
// whole list at once into vectors of verdicts, and aggregates as it goes
// on runtime.GOMAXPROCS(0) workers (see Scheduling): the agreement of a pair on a group is
// a few word operations on the vectors, and only the cases where the
// policies do not all agree are classed, once per case shape and verdict
// vector of the group. Memory holds counts and one witness per class,
// never the cases, and at most MaxClasses classes (ClassesPerPair per
// pair) and MaxSplits splits, those of the shortest signatures; the report
// counts the cases of the others (Pair.CasesLeftOut,
// Report.SplitCasesLeftOut). The Report it returns does not depend on the
// number of workers or the order in which groups finish.
//
// # Scheduling
//
// A run has three phases, and the workers (Options.Workers goroutines,
// runtime.GOMAXPROCS(0) by default) do all of them; the report does not
// depend on their number or on the order in which they finish.
//
// Judging. One goroutine walks the domain in its order, gives each group
// its offset (the number of cases before it) and skips the groups
// RunGroups does not own. It hands the groups over in blocks: the groups
// that hand over the same list of versions one after the other go
// together, up to 64 groups and 4,096 cases (groupBatch), so that the
// worker that takes a block reads the list once for all of them; a
// channel holds up to four blocks per worker. A worker takes a group
// through its steps, each in a file named for it: judge.go judges it
// with every policy into vectors of verdicts and counts each pair's
// divergences on their bit planes; localsplits.go files the versions
// where the policies do not all agree under local splits (case shape and
// verdict vector) with their smallest witnesses and the refusals that
// sign their classes; selection.go works out what each policy installs
// from a group with a history. None of this takes a lock. classes.go then
// adds the group to the aggregate the workers share (stripes.go): under
// the aggregate's lock, its cases, splits and selection, numbers for its
// case parts, and its local splits, into the run's one index of verdict
// vectors; then, stripe by stripe, under each stripe's lock, the pairs'
// counts, and the classes of the indexes sealed since the stripe last
// added one. The pairs are cut into a stripe per worker; a worker starts
// at a stripe of its own and leaves a stripe whose lock another holds
// for last (TryLock), so that workers seldom wait. Every stripe reads
// every entry of every index, so that each stripe more is another pass
// over the index, not less work.
//
// Budgets. Each worker keeps the lists of versions it read, the last 64
// and 262,144 versions at most (listCache), and lets a list go once a
// domain that hands each list over once is past it. An index takes a
// stripe's share of about 16 MB (maxIndexed) and at least 4,096 units
// (indexBudget); it is sealed when it takes more, and when the numbers
// of case parts start again (past 131,072 of them, maxIDs), and a new
// one opened; the worker that sealed it has every stripe add it to its
// pairs' classes before it takes its next group, and the last stripe to
// do so leaves it emptied for the next. The classes and
// splits kept are capped (MaxClasses, MaxSplits), the verdicts kept for a
// baseline too (two bits per case and policy, up to 64 Mi verdicts); the
// run keeps each group's constraint, offset and list of versions for the
// causes, up to 32,768 groups and 65,536 versions in distinct lists
// (runCases), so that a case of CauseOf's steps that is a case of the
// run is read from those verdicts rather than judged again; and
// Options.Progress is called from one goroutine ten times a second.
//
// The report. Once the domain is done, the open index is sealed and the
// indexes the stripes have not added yet are added to the classes, the stripes spread over the workers; then the policies'
// reasons on the witnesses that remain are fetched, pair by pair, and the
// classes are made, sorted and given their causes, the pairs spread over
// the workers again (parallel, groupParallel). Each pair, class and split
// keeps the smallest key and witness whatever the order the groups came
// in, which is why the report is the same for any number of workers and
// for the shards of compare/shard merged.
//
// # Sharding
//
// A domain too large for one machine runs in parts, which package
// compare/shard deals out, writes and merges. RunGroups judges only the
// groups a caller owns (by their index in the order the domain yields
// them), every case keeping its offset in the whole domain, and returns
// an Aggregate: what Run keeps of those cases before it builds the report
// (counts per pair, every kept class with its count and smallest witness,
// the smallest class key each cap turned away, the splits, the selection,
// the caps and every verdict by offset). Aggregate.Add combines
// aggregates of disjoint groups; since the caps keep the smallest keys
// whatever the order, the aggregate of every group is the one Run keeps,
// and Aggregate.Report builds the report from it as Run does: the same
// report, byte for byte, baseline and drift included. Aggregate.Tally is
// what an aggregate holds in plain values, and NewAggregate checks a
// Tally and makes the aggregate back: compare/shard writes the partial
// reports' JSON form from it, and judges every kept witness again with
// the policies given before it builds the report.
//
// # Report
//
// A report leads with the answer. Its Summary compares every other policy
// with a reference (Options.Reference; DefaultReference, the rule
// Terraform and OpenTofu apply today, when the run has it): the share of
// cases they agree on, the cases each admits that the other does not (⊆
// or ⊇ when one admits a subset of the other on the domain), policies
// that agree on every case merged into one row, and a few witnesses in
// words ("~> 1.2 with 2.0.0-beta.1: admits a prerelease of
// the next major"), the first one decided by the prerelease rule. Its
// Splits group the cases the policies do not all agree on by case shape
// and by which policies allow, reject and refuse them.
//
// For each pair of policies the report counts the cases where they agree
// and diverge (the agreement matrix), and splits the divergences into
// classes by signature: the shape of the case with the numbers dropped
// (operators, which comparators have a prerelease, how the version's base
// relates to each comparator's base and to the upper bound a "~>"
// implies, whether the version is a prerelease or has build metadata, and
// the verdict of each side; a side that answered Invalid is classed by
// what it refused instead). Each class has a count, a cause decided by
// CauseOf (the prerelease rule, or one of the ways of reading the text:
// Cause.Kind), and its smallest witness: fewest comparators, then the
// smallest sum of the numbers written, then the shortest text, then byte
// order. On domains of real histories the report also compares selection
// per pair, with the smallest diverging (constraint, history) as witness.
//
// Classes and splits carry a Relevance when the run has a RelevanceTable
// (CorpusRelevance reads the real module calls and provider requirements
// of prerel's corpus): the share of real constraints whose shape is the
// witness's constraint shape. Reports order them by relevance, then count (Options.Rank).
//
// The package never prints: the render package writes a report as text,
// Markdown, JSON or HTML. Report.WriteJSON and WriteBaseline write as
// they encode (compare/internal/jsonstream), a class at a time, so that
// the JSON text of a large report is never held whole in memory.
//
// # Baselines
//
// WriteBaseline saves the stable part of a report (the
// pairs, classes and selection without the policies' reasons, and every
// policy's verdict on every case, compressed) atomically, to the target
// of a symbolic link and with the old file's mode, and never over a
// directory, FIFO or device; ReadBaseline reads it back, refusing with a
// line and column what is not a baseline. ComputeDrift lists what
// appeared, disappeared or changed since, in sentences, so that CI can
// fail when a policy change moves a verdict; the order of the policies
// plays no part, and a file domain is compared by its cases. It tells the
// drift per policy for a reviewer too: how many verdicts changed in which direction
// ("cargo: 93 cases reject → allow"), and the most relevant changed case
// shapes with a witness each; it lists the first thousand changes and
// counts the rest.
//
// A DomainSpec names a domain as compare's flags do (--domain, --scope,
// --seed, --count, --pairing): Open makes it, Args gives the flags a
// partial report records to make it again (package compare/shard).
package compare
