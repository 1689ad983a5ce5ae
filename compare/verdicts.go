package compare

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/prerel/prerel/engine"
)

// MaxRecordedVerdicts bounds the verdicts a run keeps for its baseline
// (cases times policies, one byte each while the run lasts): a larger run
// keeps none, and a drift from its baseline is told by classes alone.
const MaxRecordedVerdicts = 64 << 20

// verdictLog keeps the verdict of every policy on every case, by the
// case's position in the domain's order, so that a baseline can tell
// exactly which verdicts of which policy changed. Workers write distinct
// bytes, so they need no lock.
type verdictLog struct {
	cases    int64
	byPolicy [][]byte
	overflow atomic.Bool // the domain yielded more cases than it announced
}

func newVerdictLog(cases int64, policies int) *verdictLog {
	if cases <= 0 || cases*int64(policies) > MaxRecordedVerdicts {
		return nil
	}
	l := &verdictLog{cases: cases, byPolicy: make([][]byte, policies)}
	for i := range l.byPolicy {
		l.byPolicy[i] = make([]byte, cases)
	}
	return l
}

// record keeps the verdicts of policy p on the versions of a group that
// starts at offset.
func (l *verdictLog) record(p int, offset int64, results []engine.Result) {
	if l == nil {
		return
	}
	if offset+int64(len(results)) > l.cases {
		l.overflow.Store(true)
		return
	}
	dst := l.byPolicy[p][offset:]
	for i, r := range results {
		dst[i] = byte(r.Verdict)
	}
}

// verdicts returns the log by policy name, or nil when it is incomplete.
func (l *verdictLog) verdicts(names []string, cases int64) map[string][]byte {
	if l == nil || l.overflow.Load() || cases != l.cases {
		return nil
	}
	out := make(map[string][]byte, len(names))
	for i, n := range names {
		out[n] = l.byPolicy[i]
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
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
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
		x := packed[i/4] >> (2 * (i % 4)) & 3
		if x > byte(engine.Invalid) {
			return nil, fmt.Errorf("verdict %d of case %d is not a verdict", x, i)
		}
		out[i] = x
	}
	return out, nil
}
