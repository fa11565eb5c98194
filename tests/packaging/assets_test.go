// Package packaging tests what `make package` ships. This file checks the
// committed assets under build/ and runs with every `go test ./...`;
// packages_test.go (build tag "packaging", run by `make test-package`)
// checks the packages themselves: installs the .deb into a throwaway root,
// starts it, removes it, and reads the Windows program's resources.
package packaging

import (
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"image"
	_ "image/png"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// root is the repository, two levels up.
const root = "../.."

const appID = "io.github.wayfinder_app.Wayfinder"

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, format, err := image.Decode(f)
	if err != nil || format != "png" {
		t.Fatalf("%s: not a PNG (%s): %v", path, format, err)
	}
	return img
}

// Wails wants build/appicon.png of at least 1024 px, and a Linux desktop
// looks icons up by size under hicolor.
func TestIconSizes(t *testing.T) {
	want := map[string]int{"build/appicon.png": 1024}
	for _, n := range []int{16, 22, 24, 32, 48, 64, 128, 256, 512} {
		want[fmt.Sprintf("build/linux/icons/hicolor/%dx%[1]d/apps/%s.png", n, appID)] = n
	}
	for path, size := range want {
		b := decodePNG(t, filepath.Join(root, path)).Bounds()
		if b.Dx() != size || b.Dy() != size {
			t.Errorf("%s is %dx%d, want %dx%d", path, b.Dx(), b.Dy(), size, size)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "build/linux/icons/hicolor/scalable/apps", appID+".svg")); err != nil {
		t.Error("no scalable icon:", err)
	}
}

// icon.ico holds every size Windows asks for, up to 256 px.
func TestWindowsIcon(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "build/windows/icon.ico"))
	if err != nil {
		t.Fatal(err)
	}
	images := icoImages(t, b)
	for _, size := range []int{16, 24, 32, 48, 64, 128, 256} {
		if len(images[size]) == 0 {
			t.Errorf("icon.ico has no %d px image (has %v)", size, slices.Sorted(maps.Keys(images)))
		}
	}
}

// icoImages are the images of an .ico file by width.
func icoImages(t *testing.T, ico []byte) map[int][]byte {
	t.Helper()
	if len(ico) < 6 || binary.LittleEndian.Uint16(ico[2:]) != 1 {
		t.Fatal("not an icon file")
	}
	images := map[int][]byte{}
	for i := range int(binary.LittleEndian.Uint16(ico[4:])) {
		if len(ico) < 6+16*(i+1) {
			t.Fatalf("the icon directory runs past the file")
		}
		e := ico[6+16*i:]
		w := int(e[0])
		if w == 0 {
			w = 256
		}
		size, off := binary.LittleEndian.Uint32(e[8:]), binary.LittleEndian.Uint32(e[12:])
		if int(off)+int(size) > len(ico) {
			t.Fatalf("icon image %d runs past the file", i)
		}
		images[w] = ico[off : off+size]
	}
	return images
}

// The software centre's screenshots are files in the repository, at the
// size the metainfo says.
func TestMetainfoScreenshots(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(root, "build/linux", appID+".metainfo.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Screenshots []struct {
			Image struct {
				URL    string `xml:",chardata"`
				Width  int    `xml:"width,attr"`
				Height int    `xml:"height,attr"`
			} `xml:"image"`
		} `xml:"screenshots>screenshot"`
	}
	if err := xml.NewDecoder(bytes.NewReader(raw)).Decode(&meta); err != nil {
		t.Fatal(err)
	}
	if len(meta.Screenshots) < 2 {
		t.Fatalf("%d screenshots", len(meta.Screenshots))
	}
	const prefix = "https://raw.githubusercontent.com/wayfinder-app/wayfinder/main/"
	for _, s := range meta.Screenshots {
		path, ok := strings.CutPrefix(s.Image.URL, prefix)
		if !ok {
			t.Errorf("%s is not a file of the repository", s.Image.URL)
			continue
		}
		b := decodePNG(t, filepath.Join(root, path)).Bounds()
		if b.Dx() != s.Image.Width || b.Dy() != s.Image.Height {
			t.Errorf("%s is %dx%d, the metainfo says %dx%d", path, b.Dx(), b.Dy(), s.Image.Width, s.Image.Height)
		}
	}
}

// scripts/version.sh names every package: from a release tag, from
// wails.json's version without one, marked when the tree has changes.
func TestVersionScript(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE=2026-11-23T10:00:00Z", "GIT_AUTHOR_DATE=2026-11-23T10:00:00Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	script, err := os.ReadFile(filepath.Join(root, "scripts/version.sh"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "scripts"), 0o755)
	os.WriteFile(filepath.Join(dir, "scripts/version.sh"), script, 0o755)
	os.WriteFile(filepath.Join(dir, "wails.json"), []byte(`{"info": {"productVersion": "0.3.0"}}`), 0o644)
	versions := func() map[string]string {
		t.Helper()
		cmd := exec.Command("scripts/version.sh")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, f := range strings.Fields(string(out)) {
			k, v, _ := strings.Cut(f, "=")
			m[k] = v
		}
		return m
	}
	check := func(name string, got map[string]string, want map[string]string) {
		t.Helper()
		for k, w := range want {
			if g := got[k]; !strings.HasPrefix(g, strings.TrimSuffix(w, "*")) || (!strings.HasSuffix(w, "*") && g != w) {
				t.Errorf("%s: %s = %q, want %q", name, k, g, w)
			}
		}
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "one")
	check("no tag", versions(), map[string]string{"VERSION": "0.3.0-dev.1+g*", "DEB_VERSION": "0.3.0~dev.1+g*", "WIN_VERSION": "0.3.0.1", "BUILD_DATE": "2026-11-23T10:00:00Z"})
	git("tag", "-a", "v0.3.0", "-m", "release")
	check("on the tag", versions(), map[string]string{"VERSION": "0.3.0", "DEB_VERSION": "0.3.0", "WIN_VERSION": "0.3.0.0"})
	os.WriteFile(filepath.Join(dir, "wails.json"), []byte(`{"info": {"productVersion": "0.3.1"}}`), 0o644)
	git("commit", "-q", "-am", "two")
	check("after the tag", versions(), map[string]string{"VERSION": "0.3.0-1-g*", "DEB_VERSION": "0.3.0+1.g*", "WIN_VERSION": "0.3.0.1"})
	os.WriteFile(filepath.Join(dir, "wails.json"), []byte(`{"info": {"productVersion": "0.3.2"}}`), 0o644)
	got := versions()
	check("changed tree", got, map[string]string{"VERSION": "0.3.0-1-g*", "DEB_VERSION": "0.3.0+1.g*"})
	if !strings.HasSuffix(got["VERSION"], "-dirty") || !strings.HasSuffix(got["DEB_VERSION"], ".dirty") || !strings.HasSuffix(got["COMMIT"], "-dirty") {
		t.Errorf("changed tree not marked: %v", got)
	}
}
