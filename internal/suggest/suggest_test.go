package suggest

import "testing"

func TestMaxDistance(t *testing.T) {
	tests := []struct {
		name string
		want int
	}{
		{"", 1},
		{"a", 1},
		{"ap", 1},
		{"vpc", 2},
		{"version", 3},
		{"satisfy", 3},
		{"constraint", 3},
		{"eks.node_group", 3},
		{"éèêëē", 2},
		{"éèêëēė", 3},
	}
	for _, tt := range tests {
		if got := MaxDistance(tt.name); got != tt.want {
			t.Errorf("MaxDistance(%q) = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	tests := []struct {
		what       string
		name       string
		candidates []string
		want       string
	}{
		{"no candidates", "vpc", nil, ""},
		{"one edit", "consull", []string{"app", "consul"}, "consul"},
		{"a swap is two edits", "vcp", []string{"vpc"}, "vpc"},
		{"one edit in a two-letter name", "ap", []string{"app"}, "app"},
		{"two edits in a two-letter name", "ap", []string{"apps"}, ""},
		{"a one-letter name", "b", []string{"a"}, "a"},
		{"three edits in a three-letter name", "abc", []string{"xyz"}, ""},
		{"case only", "Exhaustive", []string{"random", "exhaustive"}, "exhaustive"},
		{"case is ignored in the distance", "VERSOIN", []string{"constraint", "version"}, "version"},
		{"three edits in a seven-letter name", "satisfy", []string{"satisfies"}, "satisfies"},
		{"the closest wins", "satisfy", []string{"satisfies", "satisfy_x"}, "satisfy_x"},
		{"the first of equals wins", "ab", []string{"ac", "ad"}, "ac"},
		{"three edits in a long name", "eks.nodes_grp", []string{"eks.node_group"}, "eks.node_group"},
		{"four edits in a long name", "eks.nodes_gp", []string{"eks.node_group"}, ""},
		{"one edit in a long name", "eks.node_grop", []string{"eks.node_group"}, "eks.node_group"},
		{"a long shared prefix", "hashicorp/helm", []string{"hashicorp/aws", "hashicorp/google"}, ""},
		{"too far in a long name", "eks.node", []string{"eks.node_group"}, ""},
		{"runes, not bytes", "vérsion", []string{"version"}, "version"},
		{"empty name", "", []string{"ab", "a"}, "a"},
	}
	for _, tt := range tests {
		if got := Closest(tt.name, tt.candidates); got != tt.want {
			t.Errorf("%s: Closest(%q, %q) = %q, want %q", tt.what, tt.name, tt.candidates, got, tt.want)
		}
	}
}
