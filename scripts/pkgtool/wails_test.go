package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

// The build/ files that are Wails templates fill in from wails.json into
// what their readers accept, with this build's version.
func TestWailsTemplates(t *testing.T) {
	p, err := loadProject("../../wails.json", "1.2.3.45")
	if err != nil {
		t.Fatal(err)
	}
	if p.Info.ProductVersion != "1.2.3" {
		t.Errorf("ProductVersion %q, want the first three numbers", p.Info.ProductVersion)
	}
	fill := func(path string) []byte {
		t.Helper()
		b, err := p.fillFile(filepath.Join("../../build", path))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("{{")) {
			t.Fatalf("%s: a template was left unfilled:\n%s", path, b)
		}
		return b
	}

	var vi version.Info
	if err := vi.UnmarshalJSON(fill("windows/info.json")); err != nil {
		t.Fatal("info.json:", err)
	}
	if got := vi.Table()[0]; (*got)["ProductName"] != "Wayfinder" || (*got)["OriginalFilename"] != "wayfinder.exe" || !strings.Contains((*got)["LegalCopyright"], "Wayfinder authors") {
		t.Errorf("info.json strings: %v", *got)
	}
	m, err := winres.AppManifestFromXML(fill("windows/wails.exe.manifest"))
	if err != nil {
		t.Fatal("wails.exe.manifest:", err)
	}
	if m.Identity.Name != "io.github.wayfinder_app.Wayfinder" || m.DPIAwareness != winres.DPIPerMonitorV2 {
		t.Errorf("manifest: %+v", m)
	}

	plist := fill("darwin/Info.plist")
	d := xml.NewDecoder(bytes.NewReader(plist))
	d.Strict = true
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("Info.plist is not well-formed XML: %v", err)
		}
	}
	for _, want := range []string{"<string>1.2.3</string>", "<string>wayfinder</string>", "io.github.wayfinder-app.wayfinder"} {
		if !bytes.Contains(plist, []byte(want)) {
			t.Errorf("Info.plist lacks %s", want)
		}
	}

	// Wails' NSIS macros, from its module, as `wails build -nsis` writes them.
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/wailsapp/wails/v2").Output()
	if err != nil {
		t.Fatal(err)
	}
	nsh, err := p.fillFile(filepath.Join(strings.TrimSpace(string(dir)), "pkg/buildassets/build/windows/installer/wails_tools.nsh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`!define INFO_PRODUCTNAME "Wayfinder"`, `!define INFO_PRODUCTVERSION "1.2.3"`, "!macro wails.webview2runtime"} {
		if !bytes.Contains(nsh, []byte(want)) {
			t.Errorf("wails_tools.nsh lacks %s", want)
		}
	}
}

func TestLoadProjectRefusesAShortVersion(t *testing.T) {
	if _, err := loadProject("../../wails.json", "1.2.3"); err == nil {
		t.Error("a three-number Windows version was accepted")
	}
}
