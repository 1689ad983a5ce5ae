package report

import "testing"

func TestColumnName(t *testing.T) {
	for k, want := range map[int]string{0: "A", 1: "B", 25: "Z", 26: "AA", 27: "AB", 51: "AZ", 52: "BA", 701: "ZZ", 702: "AAA"} {
		if got := columnName(k); got != want {
			t.Errorf("columnName(%d) = %q, want %q", k, got, want)
		}
	}
}
