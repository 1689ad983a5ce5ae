package compare

import (
	"fmt"
	"strings"
	"testing"
)

// writeSizes records the size of each write.
type writeSizes struct{ sizes []int }

func (w *writeSizes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return len(p), nil
}

// TestStreamJSONWritesAsItGoes checks that a report much larger than
// Write's buffer reaches the writer in pieces no larger than the
// buffer, not whole: what the output holds at a time is bounded.
func TestStreamJSONWritesAsItGoes(t *testing.T) {
	r := &Report{Pairs: []Pair{}, Classes: make([]Class, 20000)}
	for i := range r.Classes {
		r.Classes[i] = Class{A: "a", B: "b", Signature: fmt.Sprint(i), Count: int64(i),
			Witness: Witness{Constraint: ">= 1.0", Version: "1.0.0", AReason: strings.Repeat("r", 40)}}
	}
	var w writeSizes
	if err := r.WriteJSON(&w); err != nil {
		t.Fatal(err)
	}
	total, largest := 0, 0
	for _, n := range w.sizes {
		total += n
		largest = max(largest, n)
	}
	if total < 4<<20 || largest > 64<<10 {
		t.Errorf("%d bytes in %d writes, the largest %d: want over 4 MiB in writes of at most 64 KiB", total, len(w.sizes), largest)
	}
}
