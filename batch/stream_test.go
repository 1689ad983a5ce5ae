package batch

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/lines"
)

// TestStreamBatchesBoundedByBytes checks that long lines are handed over in
// batches of about MaxBytes, not MaxLines lines at a time.
func TestStreamBatchesBoundedByBytes(t *testing.T) {
	line := ">= 1.0.0\t" + strings.Repeat("1", lines.Max-20) + "\n"
	const n = 12
	var in strings.Builder
	for i := 0; i < n; i++ {
		in.WriteString(line)
	}
	var batches []int
	err := eachBatch(strings.NewReader(in.String()), "stdin", func(b *Batch) error {
		size := 0
		for i := range b.Len() {
			c, v := b.Case(i)
			size += len(c) + 1 + len(v)
		}
		if size > MaxBytes+lines.Max {
			t.Errorf("a batch of %d lines and %d bytes, more than %d", b.Len(), size, MaxBytes+lines.Max)
		}
		batches = append(batches, b.Len())
		return nil
	})
	total := 0
	for _, b := range batches {
		total += b
	}
	if err != nil || total != n || len(batches) < 2 {
		t.Errorf("batches %v, error %v; want %d lines in at least 2 batches", batches, err, n)
	}
}
