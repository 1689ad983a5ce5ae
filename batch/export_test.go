package batch

// StreamGen is how many times the tables' versions were set.
func (ev *Evaluator) StreamGen() int { return ev.stream.gen }

// TableCompiles is how many constraints policy j compiled against its
// tables in chunk 0.
func (ev *Evaluator) TableCompiles(j int) int { return ev.tables[j][0].compiles }
