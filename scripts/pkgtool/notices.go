package main

import (
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/mod/module"
)

// licenceFile matches the files that carry a package's licence or notices.
var licenceFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents)([-._].*)?$`)

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

func runNotices(args []string) error {
	fs := flag.NewFlagSet("notices", flag.ContinueOnError)
	bin := fs.String("bin", "", "the Go binary whose modules to list")
	npm := fs.String("npm", "", "the frontend folder: dist/bundled-packages.json names the packages in the bundle, node_modules has them")
	var extra stringList
	fs.Var(&extra, "extra", "a further licence file to include as NAME=PATH (repeatable)")
	out := fs.String("out", "", "the notices file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("Third-party software in Wayfinder\n\n" +
		"Wayfinder's binary contains the software below. Each part is under its\n" +
		"own licence, reproduced here as its authors ship it.\n")
	if err := goNotices(&b, *bin); err != nil {
		return err
	}
	if *npm != "" {
		if err := npmNotices(&b, *npm); err != nil {
			return err
		}
	}
	for _, e := range extra {
		name, path, ok := strings.Cut(e, "=")
		if !ok {
			return fmt.Errorf("-extra %q: want NAME=PATH", e)
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		section(&b, name, []string{string(text)})
	}
	return os.WriteFile(*out, []byte(b.String()), 0o644)
}

func section(b *strings.Builder, title string, texts []string) {
	fmt.Fprintf(b, "\n%s\n%s\n", strings.Repeat("=", 78), title)
	for _, t := range texts {
		fmt.Fprintf(b, "%s\n\n%s\n", strings.Repeat("-", 78), strings.TrimRightFunc(t, unicode.IsSpace))
	}
}

// goNotices lists the modules linked into bin, from its build info, with
// the licence files of their module cache copies. A module without one is
// an error: someone has to look at it before it ships.
func goNotices(b *strings.Builder, bin string) error {
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return fmt.Errorf("read the build info of %s: %w", bin, err)
	}
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	root := strings.TrimSpace(string(cache))
	fmt.Fprintf(b, "\nGo %s (standard library and runtime): BSD-3-Clause, see https://go.dev/LICENSE\n", strings.TrimPrefix(info.GoVersion, "go"))
	var missing []string
	for _, m := range info.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		esc, err := module.EscapePath(m.Path)
		if err != nil {
			return err
		}
		dir := filepath.Join(root, esc+"@"+m.Version)
		texts, err := licenceTexts(dir)
		if err != nil {
			return err
		}
		if len(texts) == 0 {
			missing = append(missing, m.Path+"@"+m.Version)
			continue
		}
		section(b, fmt.Sprintf("Go module %s %s", m.Path, m.Version), texts)
	}
	if len(missing) > 0 {
		return fmt.Errorf("no licence file found for: %s", strings.Join(missing, ", "))
	}
	return nil
}

// npmNotices lists the npm packages Vite bundled into the frontend (the
// build writes their names to dist/bundled-packages.json).
func npmNotices(b *strings.Builder, frontend string) error {
	raw, err := os.ReadFile(filepath.Join(frontend, "dist", "bundled-packages.json"))
	if err != nil {
		return fmt.Errorf("the frontend build's list of bundled packages: %w", err)
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil {
		return fmt.Errorf("bundled-packages.json: %w", err)
	}
	for _, name := range names {
		dir := filepath.Join(frontend, "node_modules", filepath.FromSlash(name))
		var pkg struct{ Version, License string }
		if raw, err := os.ReadFile(filepath.Join(dir, "package.json")); err != nil {
			return err
		} else if err := json.Unmarshal(raw, &pkg); err != nil {
			return fmt.Errorf("%s/package.json: %w", name, err)
		}
		texts, err := licenceTexts(dir)
		if err != nil {
			return err
		}
		if len(texts) == 0 {
			return fmt.Errorf("npm package %s has no licence file", name)
		}
		section(b, fmt.Sprintf("npm package %s %s (%s)", name, pkg.Version, pkg.License), texts)
	}
	return nil
}

func licenceTexts(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s is not there: run `go mod download` and `npm ci` first", dir)
	}
	if err != nil {
		return nil, err
	}
	var texts []string
	for _, e := range entries {
		if e.IsDir() || !licenceFile.MatchString(e.Name()) {
			continue
		}
		t, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		texts = append(texts, string(t))
	}
	slices.Sort(texts)
	return slices.Compact(texts), nil
}
