// Package officetest runs LibreOffice for the tests whose documents a real
// office suite writes: the PDFs of pdftext's LibreOffice tier, the Excel
// and OpenDocument spreadsheets of the importer's.
package officetest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Soffice is LibreOffice's command. make test installs Debian's
// libreoffice-writer-nogui and libreoffice-calc-nogui and sets
// WAYFINDER_SOFFICE, so there a missing LibreOffice fails the test; a bare
// go test without it skips. need names the other commands the test runs
// (pdftotext).
func Soffice(t testing.TB, need ...string) string {
	t.Helper()
	name := os.Getenv("WAYFINDER_SOFFICE")
	required := name != ""
	if name == "" {
		name = "soffice"
	}
	path, err := exec.LookPath(name)
	for _, n := range need {
		if err == nil {
			_, err = exec.LookPath(n)
		}
	}
	if err != nil {
		if required {
			t.Fatalf("WAYFINDER_SOFFICE=%s: %v (make deps-test installs Debian's libreoffice-writer-nogui, libreoffice-calc-nogui, fonts-noto-cjk and poppler-utils)", name, err)
		}
		t.Skipf("LibreOffice or %v not installed (Debian packages libreoffice-writer-nogui, libreoffice-calc-nogui, poppler-utils): %v", need, err)
	}
	return path
}

// Convert converts documents to format ("pdf", "xlsx", "ods") into out,
// each named as its source with the new extension, in a LibreOffice
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
