package compare

import (
	"strings"
	"testing"
)

func TestVerdictsRoundTrip(t *testing.T) {
	v := []byte{0, 1, 2, 1, 1, 0, 2}
	s, err := encodeVerdicts(v)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeVerdicts(s, int64(len(v)))
	if err != nil || string(back) != string(v) {
		t.Fatalf("decode = %v, %v; want %v", back, err, v)
	}
	// A baseline for another case count, or of garbage, is an error.
	if _, err := decodeVerdicts(s, 100); err == nil {
		t.Error("verdicts of 7 cases read as 100")
	}
	if _, err := decodeVerdicts("not base64!", 7); err == nil {
		t.Error("garbage read as verdicts")
	}
	bomb, _ := encodeVerdicts(make([]byte, 1<<20))
	if _, err := decodeVerdicts(bomb, 8); err == nil || !strings.Contains(err.Error(), "want 2") {
		t.Errorf("a long stream for 8 cases: %v", err)
	}
	three, _ := encodeVerdicts([]byte{3})
	if _, err := decodeVerdicts(three, 1); err == nil {
		t.Error("verdict 3 accepted")
	}
}
