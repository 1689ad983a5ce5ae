package render_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/prerel/prerel/compare/render"
)

func TestProgress(t *testing.T) {
	type step struct {
		at          time.Duration
		done, total int64
	}
	tests := []struct {
		name  string
		steps []step // the last is the end
		want  string
	}{
		{"short run", []step{{100 * time.Millisecond, 50, 100}, {900 * time.Millisecond, 100, 100}}, ""},
		{"long run", []step{{500 * time.Millisecond, 10, 100}, {1500 * time.Millisecond, 50, 100}, {2 * time.Second, 100, 100}},
			"\r50/100 cases (50%)\r100/100 cases (100%) in 2s\n"},
		{"shares rounded", []step{{time.Second, 1, 3}, {3 * time.Second, 2, 3}, {3500 * time.Millisecond, 3, 3}},
			"\r1/3 cases (33%)\r2/3 cases (67%)\r3/3 cases (100%) in 3.5s\n"},
		{"no cases", []step{{2 * time.Second, 0, 0}}, ""},
	}
	for _, tt := range tests {
		clock := time.Unix(0, 0)
		var w bytes.Buffer
		progress := render.Progress(&w, func() time.Time { return clock })
		for _, s := range tt.steps {
			clock = time.Unix(0, 0).Add(s.at)
			progress(s.done, s.total)
		}
		if w.String() != tt.want {
			t.Errorf("%s: progress %q, want %q", tt.name, w.String(), tt.want)
		}
	}
}
