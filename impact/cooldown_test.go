package impact_test

import (
	"testing"
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/impact"
	"github.com/prerel/prerel/policies"
)

// TestAssessCooled checks the cause of a change a minimum age makes: P
// would select what B does without it.
func TestAssessCooled(t *testing.T) {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	offered := []string{"1.0.0", "1.1.0"}
	dates := engine.Dates{now.Add(-30 * day), now.Add(-day)}
	c := engine.Cooldown{MinAge: 7 * day, Now: now}
	for _, tt := range []struct {
		name, constraint, want string
		class                  impact.Class
		cause                  impact.Cause
	}{
		{"the cooldown", "~> 1.0", "1.0.0", impact.OtherRelease, impact.CauseCooldown},
		{"unchanged", "1.0.0", "1.0.0", impact.Unchanged, ""},
		{"an exact pin exempt", "1.1.0", "1.1.0", impact.Unchanged, ""},
	} {
		a := impact.AssessCooled(policies.Cargo{}, policies.Strict{}, tt.constraint, offered, dates, c)
		if a.Policy.Version() != tt.want || a.Class != tt.class || a.Cause != tt.cause {
			t.Errorf("%s: %s, %s, %s; want %s, %s, %s", tt.name, a.Policy.Version(), a.Class, a.Cause, tt.want, tt.class, tt.cause)
		}
	}
}
