package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	texttemplate "text/template"

	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

// project is the part of wails.json that Wails' build templates use, under
// the names they use (Wails' own type is internal to its module).
type project struct {
	Name           string `json:"name"`
	OutputFilename string `json:"outputfilename"`
	Info           struct {
		CompanyName      string `json:"companyName"`
		ProductName      string `json:"productName"`
		ProductVersion   string `json:"productVersion"`
		Copyright        string `json:"copyright"`
		Comments         string `json:"comments"`
		FileAssociations []struct {
			Ext, Name, Description, IconName, Role string
		} `json:"fileAssociations"`
		Protocols []struct {
			Scheme, Description, Role string
		} `json:"protocols"`
	} `json:"info"`
}

// loadProject reads wails.json with the version of this build: winVersion
// is four numbers (a.b.c.d); Wails' templates take the first three as
// ProductVersion and add ".0" where Windows wants four.
func loadProject(path, winVersion string) (*project, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p project
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if winVersion != "" {
		parts := strings.Split(winVersion, ".")
		if len(parts) != 4 {
			return nil, fmt.Errorf("version %q: want four numbers, a.b.c.d", winVersion)
		}
		p.Info.ProductVersion = strings.Join(parts[:3], ".")
	}
	return &p, nil
}

var nonAlphaNum = regexp.MustCompile(`[^A-Za-z0-9]+`)

// fill executes one of Wails' build templates with the project, with the
// functions Wails gives them.
func (p *project) fill(name string, tmpl []byte) ([]byte, error) {
	t, err := texttemplate.New(name).Funcs(texttemplate.FuncMap{
		"xml": func(s string) string {
			var b bytes.Buffer
			template.HTMLEscape(&b, []byte(s))
			return b.String()
		},
		"safeBundleID": func(s string) string {
			return strings.Trim(strings.ToLower(nonAlphaNum.ReplaceAllString(s, "-")), "-")
		},
	}).Parse(string(tmpl))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var out bytes.Buffer
	if err := t.Execute(&out, p); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out.Bytes(), nil
}

func (p *project) fillFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return p.fill(filepath.Base(path), b)
}

func runWinres(args []string) error {
	fs := flag.NewFlagSet("winres", flag.ContinueOnError)
	winVersion := fs.String("win-version", "", "the version, four numbers (a.b.c.d)")
	ver := fs.String("version", "", "the version as people see it (git describe)")
	dir := fs.String("dir", "build/windows", "icon.ico, info.json and wails.exe.manifest")
	wailsJSON := fs.String("project", "wails.json", "the Wails project file")
	out := fs.String("out", "rsrc_windows_amd64.syso", "the object file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	p, err := loadProject(*wailsJSON, *winVersion)
	if err != nil {
		return err
	}
	var rs winres.ResourceSet
	f, err := os.Open(filepath.Join(*dir, "icon.ico"))
	if err != nil {
		return err
	}
	defer f.Close()
	ico, err := winres.LoadICO(f)
	if err != nil {
		return fmt.Errorf("icon.ico: %w", err)
	}
	// Wails puts the application icon at ID 3; Explorer shows the first.
	if err := rs.SetIcon(winres.RT_ICON, ico); err != nil {
		return err
	}
	manifest, err := p.fillFile(filepath.Join(*dir, "wails.exe.manifest"))
	if err != nil {
		return err
	}
	m, err := winres.AppManifestFromXML(manifest)
	if err != nil {
		return fmt.Errorf("wails.exe.manifest: %w", err)
	}
	rs.SetManifest(m)
	info, err := p.fillFile(filepath.Join(*dir, "info.json"))
	if err != nil {
		return err
	}
	var vi version.Info
	if err := vi.UnmarshalJSON(info); err != nil {
		return fmt.Errorf("info.json: %w", err)
	}
	// All four numbers (Wails' template has three), and the whole version
	// as the product version's text, so that Properties > Details names
	// the exact build.
	vi.SetFileVersion(*winVersion)
	vi.SetProductVersion(*winVersion)
	if *ver != "" {
		if err := vi.Set(version.LangNeutral, version.ProductVersion, *ver); err != nil {
			return err
		}
	}
	rs.SetVersionInfo(vi)
	o, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := rs.WriteObject(o, winres.ArchAMD64); err != nil {
		o.Close()
		return err
	}
	return o.Close()
}

func runNSISInclude(args []string) error {
	fs := flag.NewFlagSet("nsis-include", flag.ContinueOnError)
	winVersion := fs.String("win-version", "", "the version, four numbers (a.b.c.d)")
	tmpl := fs.String("template", "", "Wails' wails_tools.nsh (in its module: pkg/buildassets/build/windows/installer)")
	wailsJSON := fs.String("project", "wails.json", "the Wails project file")
	out := fs.String("out", "", "where to write it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	p, err := loadProject(*wailsJSON, *winVersion)
	if err != nil {
		return err
	}
	b, err := p.fillFile(*tmpl)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, b, 0o644)
}
