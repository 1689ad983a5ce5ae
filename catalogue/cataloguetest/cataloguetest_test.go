package cataloguetest_test

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue/cataloguetest"
)

func TestRegistry(t *testing.T) {
	tests := []struct {
		names []string
		want  string // the registry's names, or the panic's message
	}{
		{[]string{"tfupdate", "strict", "hashicorp"}, "strict,hashicorp,tfupdate"},
		{[]string{"linear"}, "linear"},
		{nil, ""},
		{[]string{"strict", "no-such"}, `cataloguetest: the catalogue has no policy "no-such"`},
		{[]string{"strict", "strict"}, `cataloguetest: "strict" named twice`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.names, ","), func(t *testing.T) {
			var got string
			func() {
				defer func() {
					if r := recover(); r != nil {
						got = r.(string)
					}
				}()
				got = strings.Join(cataloguetest.Registry(tt.names...).Names(), ",")
			}()
			if got != tt.want {
				t.Errorf("Registry(%q) = %q, want %q", tt.names, got, tt.want)
			}
		})
	}
}
