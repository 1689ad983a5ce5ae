package registry

import "testing"

func TestNilAndZeroClientString(t *testing.T) {
	tests := []struct {
		name string
		c    *Client
		none bool // described as no registry
	}{
		{"nil", nil, true},
		{"zero", &Client{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.c.String()
			if (got == "registry (none)") != tt.none || got == "" {
				t.Errorf("String() = %q, want %q: %v", got, "registry (none)", tt.none)
			}
		})
	}
}
