package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	stamped := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1-0.20261123160100-abcdef123456"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abcdef1234567890"},
			{Key: "vcs.time", Value: "2026-11-23T17:01:00+01:00"},
			{Key: "vcs.modified", Value: "true"},
		}}, true
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	devel := func() (*debug.BuildInfo, bool) { return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true }
	tests := []struct {
		name    string
		v, c, d string
		read    func() (*debug.BuildInfo, bool)
		want    Info
	}{
		{"link-time values win", "v1.2.0-3-gabc", "abc123", "2026-11-20T10:00:00Z", stamped, Info{"v1.2.0-3-gabc", "abc123", "2026-11-20T10:00:00Z"}},
		{"go build in a checkout", "", "", "", stamped, Info{"v0.3.1-0.20261123160100-abcdef123456", "abcdef1234567890-dirty", "2026-11-23T16:01:00Z"}},
		{"only the version given", "v1.0.0", "", "", stamped, Info{"v1.0.0", "abcdef1234567890-dirty", "2026-11-23T16:01:00Z"}},
		{"nothing known", "", "", "", none, Info{"dev", "unknown", "unknown"}},
		{"devel module", "", "", "", devel, Info{"dev", "unknown", "unknown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resolve(tt.v, tt.c, tt.d, tt.read); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestString(t *testing.T) {
	s := Info{"v1.2.0", "abc123", "2026-11-20T10:00:00Z"}.String()
	for _, want := range []string{"wayfinder v1.2.0\n", "commit  abc123\n", "built   2026-11-20T10:00:00Z\n", "go      go"} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
}
