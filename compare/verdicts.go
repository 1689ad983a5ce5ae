package compare

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/prerel/prerel/engine"
)

// maxRecordedVerdicts bounds the verdicts a run keeps for its baseline
// (cases times policies, a quarter of a byte each while the run lasts and
// one byte each in the report): a larger run keeps none, and a drift from
// its baseline is told by classes alone.
const maxRecordedVerdicts = 64 << 20

// verdictLog keeps the verdict of every policy on every case, by the
// case's position in the domain's order, so that a baseline can tell
// exactly which verdicts of which policy changed. It packs sixteen
// verdicts into a word, two bits each (a verdict's two low bits, as a
// baseline keeps it); workers set the bits of distinct cases with atomic
// ors, so they need no lock.
type verdictLog struct {
	cases    int64
	byPolicy [][]uint32
	overflow atomic.Bool // the domain yielded more cases than it announced
}

func newVerdictLog(cases int64, policies int) *verdictLog {
	if cases <= 0 || cases*int64(policies) > maxRecordedVerdicts {
		return nil
	}
	l := &verdictLog{cases: cases, byPolicy: make([][]uint32, policies)}
	for i := range l.byPolicy {
		l.byPolicy[i] = make([]uint32, (cases+15)/16)
	}
	return l
}

// record keeps the verdicts of policy p on the n versions of a group
// that starts at offset, given as their bit planes (bitPlanes: lo and hi
// hold bit 0 and bit 1 of each verdict, 64 to a word, zero past n).
func (l *verdictLog) record(p int, offset int64, n int, lo, hi []uint64) {
	if l == nil || n == 0 {
		return
	}
	if offset+int64(n) > l.cases {
		l.overflow.Store(true)
		return
	}
	// Sixteen cases to a word; the words at either end may be shared with
	// a neighbouring group, hence the atomic or. A word the group fills
	// is its own, and is stored unless it stays zero.
	words := l.byPolicy[p]
	first, last := offset/16, (offset+int64(n)-1)/16
	for at := first; at <= last; at++ {
		i := int(at*16 - offset) // the group's version in the word's first slot; below 0 in a shared first word
		word := spreadBits(planeBits(lo, i)) | spreadBits(planeBits(hi, i))<<1
		switch {
		case word == 0:
		case (at == first && offset%16 != 0) || (at == last && (offset+int64(n))%16 != 0):
			atomic.OrUint32(&words[at], word)
		default:
			words[at] = word
		}
	}
}

// verdict is policy p's verdict on the case at offset, read back from
// the log once the run's workers are done (runCases, for the steps of
// CauseOf).
func (l *verdictLog) verdict(p int, offset int64) engine.Verdict {
	return engine.Verdict(l.byPolicy[p][offset/16] >> (2 * (offset % 16)) & 3)
}

// planeBits returns the 16 bits of the bit plane b from position i on;
// positions below 0 or past b read 0. i is at least -15.
func planeBits(b []uint64, i int) uint16 {
	if i < 0 {
		return uint16(b[0] << -i)
	}
	w, s := i/64, i%64
	if w >= len(b) {
		return 0
	}
	x := b[w] >> s
	if s > 48 && w+1 < len(b) {
		x |= b[w+1] << (64 - s)
	}
	return uint16(x)
}

// spreadBits moves bit k of x to bit 2k.
func spreadBits(x uint16) uint32 {
	v := uint32(x)
	v = (v | v<<8) & 0x00FF00FF
	v = (v | v<<4) & 0x0F0F0F0F
	v = (v | v<<2) & 0x33333333
	v = (v | v<<1) & 0x55555555
	return v
}

// runVerdicts is a report's verdicts by policy name: those of a merged
// report, or a run's log, unpacked the first time they are asked for (a
// run that no baseline is written from or compared with never needs
// them).
type runVerdicts struct {
	once   sync.Once
	log    *verdictLog
	names  []string
	cases  int64
	byName map[string][]byte
}

// get returns the verdicts by policy name, one byte per case, or nil when
// there are none or the log is incomplete.
func (v *runVerdicts) get() map[string][]byte {
	if v == nil {
		return nil
	}
	v.once.Do(func() {
		if v.log != nil {
			v.byName, v.log = v.log.verdicts(v.names, v.cases), nil
		}
	})
	return v.byName
}

// verdicts returns the log by policy name, one byte per case, or nil when
// it is incomplete.
func (l *verdictLog) verdicts(names []string, cases int64) map[string][]byte {
	if l == nil || l.overflow.Load() || cases != l.cases {
		return nil
	}
	out := make(map[string][]byte, len(names))
	for i, n := range names {
		v := make([]byte, cases)
		for w, word := range l.byPolicy[i] {
			for c := range v[w*16 : min(w*16+16, len(v))] {
				v[w*16+c] = byte(word >> (2 * c) & 3)
			}
		}
		out[n] = v
	}
	return out
}

// encodeVerdicts packs verdicts four to a byte, compresses them and
// writes them as base64, for a baseline.
func encodeVerdicts(v []byte) (string, error) {
	packed := make([]byte, (len(v)+3)/4)
	for i, x := range v {
		packed[i/4] |= (x & 3) << (2 * (i % 4))
	}
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.DefaultCompression)
	if err != nil {
		return "", err
	}
	if _, err := zw.Write(packed); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// decodeVerdicts reverses encodeVerdicts for a domain of cases cases; it
// reads no more than the cases need, so that a hostile baseline cannot
// make it inflate without bound.
func decodeVerdicts(s string, cases int64) ([]byte, error) {
	out, err := unpackVerdicts(s, cases)
	if err != nil {
		return nil, err
	}
	for i, x := range out {
		if x > byte(engine.Invalid) {
			return nil, fmt.Errorf("verdict %d of case %d is not a verdict", x, i)
		}
	}
	return out, nil
}

// unpackVerdicts reverses encodeVerdicts for a domain of cases cases,
// with any 2-bit value: a partial report's verdicts may be verdictAbsent.
// It reads no more than the cases need, so that a hostile file cannot make
// it inflate without bound.
func unpackVerdicts(s string, cases int64) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	want := (cases + 3) / 4
	packed, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), want+1))
	if err != nil {
		return nil, err
	}
	if int64(len(packed)) != want {
		return nil, fmt.Errorf("%d bytes of verdicts for %d cases, want %d", len(packed), cases, want)
	}
	out := make([]byte, cases)
	for i := range out {
		out[i] = packed[i/4] >> (2 * (i % 4)) & 3
	}
	return out, nil
}
