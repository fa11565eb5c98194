// Package progtest finds and runs the programs of the system that tests
// use as real third-party producers: Chromium and LibreOffice print PDFs
// for pdftext's tiers, LibreOffice Calc writes the importer's spreadsheets.
package progtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Command finds the program the environment variable env names, or def.
// make test installs the Debian packages and sets env, so there a missing
// program fails the test; a bare go test without them skips it. need
// names other programs the test runs (pdftotext).
func Command(t testing.TB, env, def, packages string, need ...string) string {
	t.Helper()
	name := os.Getenv(env)
	required := name != ""
	if name == "" {
		name = def
	}
	path, err := exec.LookPath(name)
	for _, n := range need {
		if err == nil {
			_, err = exec.LookPath(n)
		}
	}
	if err != nil {
		if required {
			t.Fatalf("%s=%s: %v (make deps-test installs Debian's %s)", env, name, err, packages)
		}
		t.Skipf("%s or %v not installed (Debian packages %s): %v", name, need, packages, err)
	}
	return path
}

// Soffice is LibreOffice's command (WAYFINDER_SOFFICE).
func Soffice(t testing.TB, need ...string) string {
	t.Helper()
	return Command(t, "WAYFINDER_SOFFICE", "soffice", "libreoffice-writer-nogui, libreoffice-calc-nogui, libreoffice-impress-nogui, fonts-noto-cjk and poppler-utils", need...)
}

// Convert converts documents to format ("pdf", "xlsx", "ods") into out
// with LibreOffice, each named as its source with the new extension, in a
// profile of its own so that another LibreOffice running does not take
// the call.
func Convert(ctx context.Context, soffice, out, format string, srcs ...string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	args := []string{"-env:UserInstallation=file://" + filepath.Join(out, "profile"), "--headless", "--convert-to", format, "--outdir", out}
	for _, s := range srcs {
		abs, err := filepath.Abs(s)
		if err != nil {
			return err
		}
		args = append(args, abs)
	}
	if b, err := exec.CommandContext(ctx, soffice, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("soffice: %w\n%s", err, b)
	}
	return nil
}
