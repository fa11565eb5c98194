package app

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The window shown when the desktop app cannot start: worded for the cause
// in the person's language, with the error itself escaped.
func TestStartupErrorPage(t *testing.T) {
	busy := fmt.Errorf("%w /home/me/.local/share/wayfinder (…)", errDataDirBusy)
	other := errors.New(`open the data folder /data: database disk image is malformed <script>alert(1)</script>`)
	tests := []struct {
		name, lang string
		err        error
	}{
		{"busy-ko", "ko", busy},
		{"busy-en", "en", busy},
		{"other-ko", "ko", other},
		{"other-fr", "fr", other}, // a language the app does not speak: English
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := startupErrorPage(tt.lang, tt.err)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(page), "<script>alert") {
				t.Error("the error text reached the page unescaped")
			}
			golden := filepath.Join("testdata", "startup-error-"+tt.name+".html")
			if *update {
				if err := os.WriteFile(golden, page, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(page) != string(want) {
				t.Errorf("page changed; run with -update to accept, then look at it:\n%s", page)
			}
		})
	}
}
