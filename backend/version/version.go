// Package version says which build of Wayfinder is running, for
// `wayfinder --version`, the About line in Settings and bug reports.
//
// `make build` and `make package` set the three values at link time with
// -ldflags "-X" (the version from `git describe`, the commit, and the
// commit's date as the build date, so that two builds of one commit are the
// same bytes). A plain `go build` in a git checkout still gets the commit
// and its date from what the Go toolchain records (debug.ReadBuildInfo).
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"
)

// Set at link time: -X github.com/wayfinder-app/wayfinder/backend/version.version=…
var (
	version = ""
	commit  = ""
	date    = ""
)

// Info describes one build.
type Info struct {
	Version string // e.g. v0.2.0-14-g1a2b3c4; "dev" when unknown
	Commit  string // the full commit id, with "-dirty" for uncommitted changes; "unknown" when unknown
	Date    string // the build date (RFC 3339, UTC); "unknown" when unknown
}

// Current returns what this binary knows about its build.
func Current() Info {
	return resolve(version, commit, date, readBuildInfo)
}

func readBuildInfo() (*debug.BuildInfo, bool) { return debug.ReadBuildInfo() }

// resolve prefers the link-time values and fills the gaps from the Go
// build info.
func resolve(v, c, d string, read func() (*debug.BuildInfo, bool)) Info {
	if bi, ok := read(); ok && (v == "" || c == "" || d == "") {
		var dirty bool
		var rev, when string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if c == "" && rev != "" {
			c = rev
			if dirty {
				c += "-dirty"
			}
		}
		if d == "" && when != "" {
			d = when
		}
		if v == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v = bi.Main.Version
		}
	}
	if t, err := time.Parse(time.RFC3339, d); err == nil {
		d = t.UTC().Format(time.RFC3339)
	}
	return Info{Version: orElse(v, "dev"), Commit: orElse(c, "unknown"), Date: orElse(d, "unknown")}
}

func orElse(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// String is the text of `wayfinder --version`.
func (i Info) String() string {
	return fmt.Sprintf("wayfinder %s\ncommit  %s\nbuilt   %s\ngo      %s %s/%s\n", i.Version, i.Commit, i.Date, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
