package updaters

import (
	"time"

	"github.com/prerel/prerel/engine"
)

// RenovateReleaseAgeBuffer is the default of Renovate's
// minimumReleaseAgeBuffer (dist/config/options/index.js of Renovate 44),
// which Renovate adds to minimumReleaseAge.
const RenovateReleaseAgeBuffer = 30 * time.Minute

// RenovateCooldown is Renovate's minimumReleaseAge of minAge at now as a
// cooldown on the renovate policy: the candidates the constraint admits,
// newest first, the first old enough taken (filterInternalChecks, the
// policy first); the buffer added; a candidate without a date pending
// (minimumReleaseAgeBehaviour "timestamp-required", the default); an
// exact pin not exempt, since Renovate has no such notion. When every
// candidate is pending, Renovate makes no update
// (internalChecksFilter "strict"): the selection is then none. The
// proof runs Renovate's own checkMinimumReleaseAge
// (testdata/renovate/cooldown.mjs).
func RenovateCooldown(minAge time.Duration, now time.Time) engine.Cooldown {
	return engine.Cooldown{MinAge: minAge + RenovateReleaseAgeBuffer, Now: now, PinsNotExempt: true}
}

// DependabotCooldown is Dependabot's cooldown.default-days of minAge at
// now as a cooldown on the dependabot policy (terraform's
// LatestVersionResolver): the versions registry.terraform.io's v2 API
// dates within the cooldown are dropped, whatever the module's host; a
// version without a date, or one whose date cannot be read, is let
// through (fail open); no exact pin is exempt. Dependabot's rule is
// pairwise, so the order makes no difference.
func DependabotCooldown(minAge time.Duration, now time.Time) engine.Cooldown {
	return engine.Cooldown{MinAge: minAge, Now: now, AllowUndated: true, PinsNotExempt: true}
}
