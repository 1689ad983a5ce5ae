// Package shard runs a compare run in shards and merges their partial
// reports into the report of the whole run.
//
// A domain too large for one machine runs in shards: RunPartial with
// Shard K of N judges, with compare.RunGroups, the groups whose index (in
// the order the domain yields them) modulo N is K-1, every case keeping
// its offset in the whole domain, and returns a Partial: the
// compare.Aggregate of those cases, with the whole domain's DomainInfo,
// the policies in order, the reference, rank, relevance table and caps.
// Partial.WriteJSON writes it as one line of JSON, as it encodes it, and
// ReadPartial reads it back, refusing with the file's line and column
// what is not a partial report, in the words of the Hints the program
// gives (prerel's CLI names its flags; the package names none).
//
// A Merger combines partial reports of disjoint shards, one part at a
// time, in any number, order and grouping, into the same partial report,
// so that merging holds two partial reports in memory however many
// shards there are; it refuses parts of another run (another domain,
// policies, order of policies, reference, rank, relevance table, caps or
// number of shards) or a shard given twice, naming the files.
// Partial.Report builds the report from a merged partial report once
// every shard is there: the same report, byte for byte, as compare.Run on
// the whole domain, baseline and drift included. It needs the policies
// the shards ran: a partial report records a fingerprint of each (its
// verdicts on a sample of the exhaustive domain of compare.MinScope), and
// Report refuses a policy of the same name with another fingerprint, or
// one that judges a kept witness otherwise. Every kept witness must be a
// case of its class: ReadPartial refuses, naming the file and the class,
// a witness whose case shape is not its class's, and Report one of a
// class of a refusal whose signature, judged again, is not its class's.
//
// A partial report holds no domain, so whether each kept witness (of a
// class or of a split) is a case of the domain the shards ran, and the
// witness of each pair's selection (a constraint and its history) a
// group of it, is checked by the caller, who can make that domain again:
// a WitnessCheck notes the witnesses of each partial report read, and
// walks the domain once to refuse one the domain does not yield, naming
// the file, the class, split or selection, and the witness. On that walk
// it also refuses the witness of a class or split that is not the case
// its shards keep, the smallest of the class among their groups, which
// compare.KeptCheck finds by judging the cases of the class's shape that
// come before the witness, and the witness of a selection that is not
// the group they keep, the smallest of their groups where the pair
// installs different versions (with what each policy installs there),
// which it finds by working out what the pair installs from the groups
// that come before the witness and from the witness's own; the error
// names the case or group they keep. prerel merge makes a built-in domain again from the
// flags the shards record (Partial.DomainArgs) and a file domain only
// from its own --domain FILE; when it cannot make the domain, it refuses
// to write the report rather than write one whose witnesses were not
// checked. (merge --partial checks none: the merge that writes the report
// does.)
package shard
