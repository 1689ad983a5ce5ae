package plural

import "testing"

func TestOf(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 classes"},
		{1, "1 class"},
		{2, "2 classes"},
		{-1, "-1 classes"},
		{1234567, "1234567 classes"},
	}
	for _, tt := range tests {
		if got := Of(tt.n, "class", "classes"); got != tt.want {
			t.Errorf("Of(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	if got := Of(1, "module", "modules"); got != "1 module" {
		t.Errorf("Of(1) with int = %q", got)
	}
}
