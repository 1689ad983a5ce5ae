package registry

import (
	"strings"
	"testing"
)

func TestURLs(t *testing.T) {
	tests := []struct {
		name  string
		adds  []string
		want  string // String once every add is made
		given bool
		err   string // of the last add
	}{
		{name: "none", want: ""},
		{name: "every host", adds: []string{"https://mirror.example/"}, want: "https://mirror.example/", given: true},
		{name: "hosts", adds: []string{"Reg.Example=https://a.example/", "https://all.example/", "b.example:8443=http://b.example/x/"},
			want: "https://all.example/ b.example:8443=http://b.example/x/ reg.example=https://a.example/", given: true},
		{name: "a URL with = in its path", adds: []string{"https://m.example/a=b"}, want: "https://m.example/a=b", given: true},
		{name: "a password redacted", adds: []string{"https://u:secret@m.example/"}, want: "https://REDACTED@m.example/", given: true},
		{name: "every host twice", adds: []string{"https://a.example/", "https://b.example/"}, err: "a URL for every host is already given"},
		{name: "a host twice", adds: []string{"r.example=https://a.example/", "R.example=https://b.example/"}, err: `a URL for host "r.example" is already given`},
		{name: "not a URL", adds: []string{"r.example=ftp://a.example/"}, err: "ftp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var u URLs
			var err error
			for _, s := range tt.adds {
				if err = u.Add(s); err != nil {
					break
				}
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || u.String() != tt.want || u.Given() != tt.given {
				t.Errorf("%q (given %v), %v; want %q (given %v)", u.String(), u.Given(), err, tt.want, tt.given)
			}
		})
	}
}
