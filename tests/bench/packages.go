package main

// The packages' sizes (issue 20): Wayfinder's downloads beside the Wails
// hello-world's, both made by scripts/package.sh in this run, so that the
// difference is what Wayfinder adds, not the packaging.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// packageSizes packages the app binary and the hello-world the same way
// and returns the report's section on their sizes.
func packageSizes(ctx context.Context, o options, log func(string, ...any)) (string, error) {
	dir, err := os.MkdirTemp("", "wayfinder-bench-packages-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	helloBin := filepath.Join(dir, "hello")
	log("building the Wails hello-world as `make build` builds Wayfinder (PIE, stripped)")
	build := exec.CommandContext(ctx, "go", "build", "-tags", "desktop,production,webkit2_41", "-trimpath", "-buildmode=pie", "-ldflags", "-s -w", "-o", helloBin, "./tests/bench/hello")
	build.Dir = o.root
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build the hello-world: %w: %s", err, out)
	}
	app, err := filepath.Abs(filepath.Join(o.root, o.app))
	if err != nil {
		return "", err
	}
	var sizes [2]packaged
	for i, p := range []struct{ name, bin, winMain, manpage string }{{"Wayfinder", app, ".", "1"}, {"Wails hello-world", helloBin, "./tests/bench/hello", "0"}} {
		log("packaging %s (scripts/package.sh)", p.name)
		out := filepath.Join(dir, fmt.Sprint(i))
		cmd := exec.CommandContext(ctx, "scripts/package.sh")
		cmd.Dir = o.root
		cmd.Env = append(os.Environ(), "BIN="+p.bin, "OUT="+out, "WIN_MAIN="+p.winMain, "MANPAGE="+p.manpage,
			"VERSION=0.0.0-bench", "DEB_VERSION=0.0.0~bench", "WIN_VERSION=0.0.0.0", "BUILD_DATE=2026-01-01T00:00:00Z", "LDFLAGS_VERSION=")
		if b, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("package %s: %w\n%s", p.name, err, b)
		}
		if sizes[i], err = measurePackages(out); err != nil {
			return "", fmt.Errorf("%s: %w", p.name, err)
		}
	}
	w, h := sizes[0], sizes[1]
	mb := func(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
	var b strings.Builder
	b.WriteString("\n## Package sizes\n\n")
	b.WriteString("Both made by `scripts/package.sh` in this run: the same build flags, desktop entry, icons, licences and installer script, " +
		"so the difference is Wayfinder itself. Installed size is the .deb's Installed-Size (what dpkg reports).\n\n")
	b.WriteString("| package | Wayfinder | Wails hello-world | difference |\n|---|---|---|---|\n")
	for _, r := range []struct {
		what string
		a, b int64
	}{
		{".deb (Debian 12, amd64)", w.deb, h.deb},
		{"installed size of the .deb", w.installed, h.installed},
		{"Windows installer (NSIS, with the WebView2 bootstrapper)", w.installer, h.installer},
		{"Windows program (.exe)", w.exe, h.exe},
		{"Linux .tar.gz", w.tarball, h.tarball},
	} {
		fmt.Fprintf(&b, "| %s | %s | %s | +%s |\n", r.what, mb(r.a), mb(r.b), mb(r.a-r.b))
	}
	return b.String(), nil
}

type packaged struct{ deb, installed, installer, exe, tarball int64 }

func measurePackages(dir string) (packaged, error) {
	var p packaged
	size := func(pattern string) (int64, string, error) {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		if len(m) != 1 {
			return 0, "", fmt.Errorf("%d files match %s", len(m), pattern)
		}
		fi, err := os.Stat(m[0])
		if err != nil {
			return 0, "", err
		}
		return fi.Size(), m[0], nil
	}
	var deb string
	var err error
	if p.deb, deb, err = size("*.deb"); err != nil {
		return p, err
	}
	if p.installer, _, err = size("*-installer.exe"); err != nil {
		return p, err
	}
	if p.exe, _, err = size("*-amd64.exe"); err != nil {
		return p, err
	}
	if p.tarball, _, err = size("*.tar.gz"); err != nil {
		return p, err
	}
	field, err := exec.Command("dpkg-deb", "--field", deb, "Installed-Size").Output()
	if err != nil {
		return p, fmt.Errorf("dpkg-deb: %w", err)
	}
	kib, err := strconv.ParseInt(strings.TrimSpace(string(field)), 10, 64)
	if err != nil {
		return p, fmt.Errorf("Installed-Size %q: %w", field, err)
	}
	p.installed = kib * 1024
	return p, nil
}
