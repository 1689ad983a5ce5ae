package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/engine"
)

// fingerprintEvery is how sparsely the probe cases of a policy's
// fingerprint sample the exhaustive domain of MinScope: one case in this
// many.
const fingerprintEvery = 16

// probePanicked is a fingerprint's verdict on a case where the policy
// panics.
const probePanicked = 3

// probeGroup is a constraint with the versions a fingerprint judges
// against it.
type probeGroup struct {
	constraint string
	versions   []string
}

// probeCases are the cases of a fingerprint: every fingerprintEvery-th
// case of the exhaustive domain of MinScope, where the policies prerel
// registers all differ from one another.
var probeCases = sync.OnceValue(func() []probeGroup {
	d, err := compare.Exhaustive(compare.MinScope)
	if err != nil {
		return nil
	}
	var out []probeGroup
	var i int
	d.Groups(func(g compare.Group) bool {
		pg := probeGroup{constraint: g.Constraint}
		for _, v := range g.Versions {
			if i%fingerprintEvery == 0 {
				pg.versions = append(pg.versions, v)
			}
			i++
		}
		if len(pg.versions) > 0 {
			out = append(out, pg)
		}
		return true
	})
	return out
})

// fingerprint identifies what a policy does: the SHA-256 of its verdicts
// on the probe cases, one byte each (3 where it panics). Two policies of
// the same name with different fingerprints are different policies; the
// same fingerprint is no proof of the same policy, and a merge also
// judges the kept witnesses again.
func fingerprint(p engine.Policy) string {
	sum := sha256.New()
	for _, g := range probeCases() {
		sum.Write(probeVerdicts(p, g))
	}
	return "sha256:" + hex.EncodeToString(sum.Sum(nil))
}

// probeVerdicts judges the versions of g with p, a byte per version.
func probeVerdicts(p engine.Policy, g probeGroup) (out []byte) {
	out = make([]byte, len(g.versions))
	at := -1 // the version being judged; -1 while compiling
	defer func() {
		if recover() != nil {
			for i := max(at, 0); i < len(out); i++ {
				out[i] = probePanicked
			}
			if at >= 0 && at+1 < len(out) {
				// the versions after a panic are judged one by one
				rest := probeVerdicts(p, probeGroup{g.constraint, g.versions[at+1:]})
				copy(out[at+1:], rest)
			}
		}
	}()
	m, err := p.Compile(g.constraint)
	if err != nil {
		for i := range out {
			out[i] = byte(engine.Invalid)
		}
		return out
	}
	for i, v := range g.versions {
		at = i
		out[i] = byte(m.Match(v).Verdict)
	}
	return out
}

// fingerprints are the fingerprints of the policies, in order.
func fingerprints(policies []engine.Policy) []string {
	out := make([]string, len(policies))
	var wg sync.WaitGroup
	for i, p := range policies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = fingerprint(p)
		}()
	}
	wg.Wait()
	return out
}
