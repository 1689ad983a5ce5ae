package render

import (
	"fmt"
	"io"
	"time"
)

// Progress returns a compare.Options.Progress that tells a run's progress
// on w, a terminal, once the run has lasted more than a second by now,
// overwriting one line: cases done of all and the share; the last call
// ends the line with the time taken. A shorter run writes nothing.
func Progress(w io.Writer, now func() time.Time) func(done, total int64) {
	start := now()
	shown := false
	return func(done, total int64) {
		elapsed := now().Sub(start)
		if !shown && elapsed < time.Second {
			return
		}
		if done >= total {
			if shown {
				fmt.Fprintf(w, "\r%d/%d cases (100%%) in %s\n", done, total, elapsed.Round(time.Millisecond))
			}
			return
		}
		shown = true
		pct := 0.0
		if total > 0 {
			pct = 100 * float64(done) / float64(total)
		}
		fmt.Fprintf(w, "\r%d/%d cases (%.0f%%)", done, total, pct)
	}
}
