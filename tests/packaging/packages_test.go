//go:build packaging

// These tests check the packages `make package` made; `make test-package`
// runs them (`go test -tags packaging ./tests/packaging`) with the version
// it built in the environment.
package packaging

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"debug/pe"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

// built is what `make package` made, found through the environment `make
// test-package` sets.
type built struct {
	dir                             string
	version, debVersion, winVersion string
}

func packages(t *testing.T) built {
	t.Helper()
	b := built{os.Getenv("WAYFINDER_PACKAGES"), os.Getenv("VERSION"), os.Getenv("DEB_VERSION"), os.Getenv("WIN_VERSION")}
	if b.dir == "" || b.version == "" || b.debVersion == "" || b.winVersion == "" {
		t.Fatal("WAYFINDER_PACKAGES, VERSION, DEB_VERSION or WIN_VERSION is not set: run `make test-package`")
	}
	return b
}

func (b built) deb() string { return filepath.Join(b.dir, "wayfinder_"+b.debVersion+"_amd64.deb") }
func (b built) exe() string { return filepath.Join(b.dir, "wayfinder-"+b.version+"-windows-amd64.exe") }
func (b built) installer() string {
	return filepath.Join(b.dir, "wayfinder-"+b.version+"-windows-amd64-installer.exe")
}
func (b built) tarball() string {
	return filepath.Join(b.dir, "wayfinder-"+b.version+"-linux-amd64.tar.gz")
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Every download is named with the version and listed in SHA256SUMS with
// its right sum; nothing else is there.
func TestDownloadsAndSums(t *testing.T) {
	b := packages(t)
	want := []string{filepath.Base(b.deb()), filepath.Base(b.exe()), filepath.Base(b.installer()), filepath.Base(b.tarball())}
	sums, err := os.ReadFile(filepath.Join(b.dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q", line)
		}
		data, err := os.ReadFile(filepath.Join(b.dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if h := sha256.Sum256(data); hex.EncodeToString(h[:]) != sum {
			t.Errorf("%s: SHA256SUMS says %s, the file's is %x", name, sum, h)
		}
		listed = append(listed, name)
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("SHA256SUMS lists %v, want %v", listed, want)
	}
	entries, _ := os.ReadDir(b.dir)
	if len(entries) != len(want)+1 {
		t.Errorf("%d files in %s, want the %d downloads and SHA256SUMS", len(entries), b.dir, len(want))
	}
}

// The Windows program is a 64-bit GUI program (no console window opens
// with it) with Wayfinder's icon, its manifest and the build's version.
func TestWindowsProgram(t *testing.T) {
	b := packages(t)
	f, err := pe.Open(b.exe())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok || f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		t.Fatalf("not PE32+ for x86-64: machine %#x, %T", f.Machine, f.OptionalHeader)
	}
	if oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		t.Errorf("subsystem %d, want the GUI one (%d): -H windowsgui is missing", oh.Subsystem, pe.IMAGE_SUBSYSTEM_WINDOWS_GUI)
	}
	if f.Section(".rsrc") == nil || oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_RESOURCE].Size == 0 {
		t.Fatal("no resource section: the .syso was not linked")
	}
	exe, err := os.Open(b.exe())
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Close()
	rs, err := winres.LoadFromEXE(exe)
	if err != nil {
		t.Fatal(err)
	}
	icon, err := rs.GetIcon(winres.RT_ICON)
	if err != nil {
		t.Fatal("no application icon:", err)
	}
	var ico bytes.Buffer
	if err := icon.SaveICO(&ico); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join(root, "build/windows/icon.ico"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := icoImages(t, ico.Bytes()), icoImages(t, committed); !maps.EqualFunc(got, want, bytes.Equal) {
		t.Errorf("the program's icon is not build/windows/icon.ico: sizes %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	vi := versionInfo(t, rs)
	strs := vi.Table()[0]
	if strs == nil {
		t.Fatalf("version resource has no neutral strings: %v", vi.Table())
	}
	if got := (*strs)["ProductVersion"]; got != b.version {
		t.Errorf("ProductVersion %q, want %q", got, b.version)
	}
	if got := fmt.Sprintf("%d.%d.%d.%d", vi.FileVersion[0], vi.FileVersion[1], vi.FileVersion[2], vi.FileVersion[3]); got != b.winVersion {
		t.Errorf("file version %s, want %s", got, b.winVersion)
	}
	if (*strs)["ProductName"] != "Wayfinder" || (*strs)["OriginalFilename"] != "wayfinder.exe" {
		t.Errorf("version strings: %v", *strs)
	}
	if m := rs.Get(winres.RT_MANIFEST, winres.ID(1), winres.LCIDDefault); !bytes.Contains(m, []byte("PerMonitorV2")) && !bytes.Contains(m, []byte("permonitorv2")) {
		t.Errorf("manifest without per-monitor DPI awareness:\n%s", m)
	}
}

// versionInfo reads a program's version resource (what Properties >
// Details shows), in whichever language it is.
func versionInfo(t *testing.T, rs *winres.ResourceSet) *version.Info {
	t.Helper()
	var raw []byte
	rs.WalkType(winres.RT_VERSION, func(_ winres.Identifier, _ uint16, data []byte) bool {
		raw = data
		return false
	})
	vi, err := version.FromBytes(raw)
	if err != nil {
		t.Fatal("version resource:", err)
	}
	return vi
}

// The installer is an NSIS installer carrying the program, its licences,
// the uninstaller and the WebView2 bootstrapper (7-Zip reads NSIS archives).
func TestWindowsInstaller(t *testing.T) {
	b := packages(t)
	f, err := pe.Open(b.installer())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if oh, ok := f.OptionalHeader.(*pe.OptionalHeader32); !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		t.Errorf("the installer is not a GUI program: %T", f.OptionalHeader)
	}
	list := run(t, "7zz", "l", "-slt", b.installer())
	if !strings.Contains(list, "Type = Nsis") {
		t.Fatalf("not an NSIS installer:\n%s", list)
	}
	sizes := map[string]int64{}
	var name string
	for _, line := range strings.Split(list, "\n") {
		if v, ok := strings.CutPrefix(line, "Path = "); ok {
			name = v
		}
		if v, ok := strings.CutPrefix(line, "Size = "); ok && name != "" {
			sizes[name], _ = strconv.ParseInt(v, 10, 64)
		}
	}
	exe, _ := os.Stat(b.exe())
	if sizes["wayfinder.exe"] != exe.Size() {
		t.Errorf("wayfinder.exe in the installer: %d bytes, the program is %d", sizes["wayfinder.exe"], exe.Size())
	}
	for _, want := range []string{"LICENSE.txt", "THIRD_PARTY_NOTICES.txt", "$PLUGINSDIR/webview2bootstrapper/MicrosoftEdgeWebview2Setup.exe"} {
		if sizes[want] == 0 {
			t.Errorf("the installer lacks %s; it has %v", want, sizes)
		}
	}
	if _, ok := sizes["uninstall.exe"]; !ok { // written at install time: listed without a size
		t.Errorf("the installer writes no uninstaller; it has %v", sizes)
	}
	inst, err := os.Open(b.installer())
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	rs, err := winres.LoadFromEXE(inst)
	if err != nil {
		t.Fatal(err)
	}
	vi := versionInfo(t, rs)
	if got := fmt.Sprintf("%d.%d.%d.%d", vi.ProductVersion[0], vi.ProductVersion[1], vi.ProductVersion[2], vi.ProductVersion[3]); got != b.winVersion {
		t.Errorf("installer version %s, want %s", got, b.winVersion)
	}
}

// The tarball holds the binary, the README and the licences, ours and the
// third-party ones, in one folder named with the version.
func TestTarball(t *testing.T) {
	b := packages(t)
	list := run(t, "tar", "-tvzf", b.tarball())
	dir := "wayfinder-" + b.version + "-linux-amd64/"
	for _, want := range []string{"wayfinder", "README.md", "LICENSE", "THIRD_PARTY_NOTICES.txt"} {
		if !strings.Contains(list, " "+dir+want+"\n") {
			t.Errorf("the tarball lacks %s%s:\n%s", dir, want, list)
		}
	}
	if !regexp.MustCompile(`(?m)^-rwxr-xr-x 0/0 .* ` + regexp.QuoteMeta(dir) + `wayfinder$`).MatchString(list) {
		t.Errorf("the binary is not executable, or not owned by root:\n%s", list)
	}
	notices := run(t, "tar", "-xzOf", b.tarball(), dir+"THIRD_PARTY_NOTICES.txt")
	for _, want := range []string{"github.com/wailsapp/wails/v2", "modernc.org/sqlite", "npm package svelte", "npm package dompurify", "PDFium"} {
		if !strings.Contains(notices, want) {
			t.Errorf("THIRD_PARTY_NOTICES.txt does not mention %s", want)
		}
	}
}

// The .deb's fields: it needs WebKitGTK 4.1 and GTK 3 (found from the
// binary's libraries by dpkg-shlibdeps), and lintian finds no error.
func TestDebFields(t *testing.T) {
	b := packages(t)
	fields := run(t, "dpkg-deb", "--field", b.deb())
	for _, want := range []string{"Package: wayfinder\n", "Version: " + b.debVersion + "\n", "Architecture: amd64\n", "libwebkit2gtk-4.1-0 (>=", "libgtk-3-0 (>=", "libc6 (>="} {
		if !strings.Contains(fields, want) {
			t.Errorf("control lacks %q:\n%s", want, fields)
		}
	}
	out, err := exec.Command("lintian", "--fail-on", "error", b.deb()).CombinedOutput()
	if err != nil {
		t.Errorf("lintian: %v\n%s", err, out)
	}
	t.Logf("lintian:\n%s", out)
}

// The .deb installs into a throwaway root (dpkg --instdir, with a copy of
// this machine's package database so the dependencies count as installed),
// its desktop entry and metainfo validate, the installed program opens its
// window with Wayfinder's icon and answers the frontend's Ready call, and
// dpkg -r removes every file it installed but not the person's data.
func TestDebInstallStartRemove(t *testing.T) {
	b := packages(t)
	sys := t.TempDir()
	inst, admin := filepath.Join(sys, "root"), filepath.Join(sys, "dpkg")
	for _, d := range []string{inst, filepath.Join(admin, "info"), filepath.Join(admin, "updates"), filepath.Join(admin, "triggers")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	status, err := os.ReadFile("/var/lib/dpkg/status")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(admin, "status"), status, 0o644)
	os.WriteFile(filepath.Join(admin, "available"), nil, 0o644)
	dpkg := func(args ...string) string {
		t.Helper()
		base := []string{"--instdir=" + inst, "--admindir=" + admin, "--force-script-chrootless", "--log=" + filepath.Join(sys, "dpkg.log")}
		if os.Geteuid() != 0 {
			base = append(base, "--force-not-root")
		}
		return run(t, "dpkg", append(base, args...)...)
	}
	dpkg("--install", b.deb())
	files := strings.Fields(dpkg("--listfiles", "wayfinder"))
	for _, want := range []string{"/usr/bin/wayfinder", "/usr/share/applications/" + appID + ".desktop", "/usr/share/metainfo/" + appID + ".metainfo.xml",
		"/usr/share/icons/hicolor/256x256/apps/" + appID + ".png", "/usr/share/icons/hicolor/scalable/apps/" + appID + ".svg",
		"/usr/share/doc/wayfinder/copyright", "/usr/share/man/man1/wayfinder.1.gz"} {
		if !slices.Contains(files, want) {
			t.Errorf("the package did not install %s", want)
		}
	}
	run(t, "desktop-file-validate", filepath.Join(inst, "usr/share/applications", appID+".desktop"))
	run(t, "appstreamcli", "validate", "--no-net", filepath.Join(inst, "usr/share/metainfo", appID+".metainfo.xml"))
	launcherEntry(t, filepath.Join(inst, "usr/share"))

	// The person's home is inside the throwaway root too, so that dpkg -r
	// could reach the data folder if it were careless.
	home := filepath.Join(inst, "home", "person")
	startInstalled(t, filepath.Join(inst, "usr/bin/wayfinder"), home)
	data := filepath.Join(home, ".local/share/wayfinder/wayfinder.db")
	if _, err := os.Stat(data); err != nil {
		t.Fatalf("the app made no data folder: %v", err)
	}

	dpkg("--remove", "wayfinder")
	var left []string
	filepath.WalkDir(filepath.Join(inst, "usr"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && path != filepath.Join(inst, "usr") {
			left = append(left, strings.TrimPrefix(path, inst))
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("dpkg -r left %v", left)
	}
	if _, err := os.Stat(data); err != nil {
		t.Errorf("dpkg -r took the person's data: %v", err)
	}
}

// launcherEntry shows the installed desktop entry in a real launcher (rofi,
// which reads desktop entries and icon themes as desktop menus do), in
// English and in Korean, saves screenshots to artifacts/package/ and checks
// that Wayfinder's icon is drawn beside its name.
func launcherEntry(t *testing.T, share string) {
	t.Helper()
	shots, _ := filepath.Abs(filepath.Join(root, "artifacts/package"))
	os.MkdirAll(shots, 0o755)
	work := t.TempDir()
	script := filepath.Join(work, "launcher.sh")
	os.WriteFile(script, []byte(`set -eu
export XDG_DATA_DIRS="$1:/usr/share" XDG_CACHE_HOME="$2/cache" XDG_CONFIG_HOME="$2/config"
for lang in en ko; do
  LANGUAGE=$lang LANG=C.UTF-8 rofi -show drun -show-icons -filter wayfinder \
    -theme-str 'window {width: 560px;} listview {lines: 3;} element-icon {size: 48px;}' &
  r=$!
  sleep 2
  import -window root -crop 640x260+192+100 "$3/launcher-$lang.png"
  kill $r; wait $r || true
done
`), 0o755)
	if out, err := exec.Command("timeout", "60", "xvfb-run", "-a", "-s", "-screen 0 1024x600x24", "bash", script, share, work, shots).CombinedOutput(); err != nil {
		t.Fatalf("the launcher: %v\n%s", err, out)
	}
	for _, lang := range []string{"en", "ko"} {
		shot := decodePNG(t, filepath.Join(shots, "launcher-"+lang+".png"))
		blue := 0 // the icon's blue; rofi's own theme has none
		b := shot.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := color.NRGBAModel.Convert(shot.At(x, y)).(color.NRGBA)
				if c.B > 150 && int(c.B)-int(c.R) > 80 && int(c.B)-int(c.G) > 30 {
					blue++
				}
			}
		}
		if blue < 500 {
			t.Errorf("launcher-%s.png: Wayfinder's icon is not drawn in the launcher (%d icon-blue pixels)", lang, blue)
		}
	}
}

// startInstalled runs the installed program in a real window under Xvfb
// with HOME=home until the frontend's Ready call arrives, checks the
// window's icon (the _NET_WM_ICON the task bar shows) is Wayfinder's, and
// saves a screenshot to artifacts/package/ for a person to look at.
func startInstalled(t *testing.T, bin, home string) {
	t.Helper()
	work := t.TempDir()
	shots, _ := filepath.Abs(filepath.Join(root, "artifacts/package"))
	os.MkdirAll(shots, 0o755)
	script := filepath.Join(work, "session.sh")
	os.WriteFile(script, []byte(`set -eu
HOME="$1" "$2" --ollama-host http://127.0.0.1:9 >"$3/app.log" 2>&1 &
app=$!
trap 'kill $app 2>/dev/null || true' EXIT
for _ in $(seq 600); do
  grep -q "frontend ready" "$3/app.log" && break
  kill -0 $app 2>/dev/null || { echo "the app exited"; cat "$3/app.log"; exit 1; }
  sleep 0.1
done
grep -q "frontend ready" "$3/app.log" || { echo "no Ready call"; cat "$3/app.log"; exit 1; }
wid=$(xdotool search --sync --onlyvisible --name Wayfinder | head -1)
xprop -len 4194304 -id "$wid" -notype -f _NET_WM_ICON 32c '$0+' _NET_WM_ICON >"$3/icon.txt"
sleep 1
import -window "$wid" "$4/installed-window.png"
kill $app
wait $app || true
`), 0o755)
	cmd := exec.Command("xvfb-run", "-a", "-s", "-screen 0 1280x860x24", "dbus-run-session", "--", "bash", script, home, bin, work, shots)
	done := make(chan error, 1)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the installed app under Xvfb: %v\n%s", err, out.String())
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("the installed app did not answer within 2 minutes:\n%s", out.String())
	}
	log, _ := os.ReadFile(filepath.Join(work, "app.log"))
	if !strings.Contains(string(log), "frontend ready") {
		t.Fatalf("no Ready call:\n%s", log)
	}
	icon := windowIcon(t, filepath.Join(work, "icon.txt"))
	want := decodePNG(t, filepath.Join(root, "build/linux/icons/hicolor/256x256/apps", appID+".png"))
	if icon.Bounds() != want.Bounds() {
		t.Fatalf("window icon %v, want %v", icon.Bounds(), want.Bounds())
	}
	if d := meanDiff(icon, want); d > 2 {
		t.Errorf("the window's icon differs from Wayfinder's by %.1f per channel", d)
	}
	f, err := os.Create(filepath.Join(shots, "installed-window-icon.png"))
	if err == nil {
		png.Encode(f, icon)
		f.Close()
	}
}

// windowIcon reads the first image of an _NET_WM_ICON property printed by
// xprop: width, height, then one ARGB pixel per number.
func windowIcon(t *testing.T, path string) image.Image {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, values, ok := strings.Cut(string(raw), "_NET_WM_ICON")
	if !ok {
		t.Fatalf("no _NET_WM_ICON on the window: %q", raw)
	}
	var nums []uint32
	sc := bufio.NewScanner(strings.NewReader(values))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		start := bytes.IndexFunc(data, func(r rune) bool { return r >= '0' && r <= '9' })
		if start < 0 {
			return len(data), nil, nil
		}
		end := bytes.IndexFunc(data[start:], func(r rune) bool { return r < '0' || r > '9' })
		if end < 0 {
			if !atEOF {
				return start, nil, nil
			}
			return len(data), data[start:], nil
		}
		return start + end, data[start : start+end], nil
	})
	for sc.Scan() {
		n, err := strconv.ParseUint(sc.Text(), 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		nums = append(nums, uint32(n))
	}
	if len(nums) < 2 || len(nums) < 2+int(nums[0]*nums[1]) {
		t.Fatalf("_NET_WM_ICON has %d numbers", len(nums))
	}
	w, h := int(nums[0]), int(nums[1])
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i, p := range nums[2 : 2+w*h] {
		img.SetNRGBA(i%w, i/w, color.NRGBA{R: uint8(p >> 16), G: uint8(p >> 8), B: uint8(p), A: uint8(p >> 24)})
	}
	return img
}

// meanDiff is the mean absolute difference per channel, 0–255, with colour
// weighed by coverage (transparent pixels' colour does not matter).
func meanDiff(a, b image.Image) float64 {
	var sum float64
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ca := color.NRGBAModel.Convert(a.At(x, y)).(color.NRGBA)
			cb := color.NRGBAModel.Convert(b.At(x, y)).(color.NRGBA)
			alpha := (float64(ca.A) + float64(cb.A)) / 510
			sum += abs(float64(ca.A)-float64(cb.A)) + alpha*(abs(float64(ca.R)-float64(cb.R))+abs(float64(ca.G)-float64(cb.G))+abs(float64(ca.B)-float64(cb.B)))
		}
	}
	return sum / float64(4*r.Dx()*r.Dy())
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// The committed icons are renderings of build/appicon.svg as it is now
// (someone who edits the SVG runs `make icons`).
func TestIconsMatchTheirSource(t *testing.T) {
	for _, size := range []int{1024, 256, 48, 16} {
		path := filepath.Join(root, "build/appicon.png")
		if size != 1024 {
			path = filepath.Join(root, fmt.Sprintf("build/linux/icons/hicolor/%dx%[1]d/apps/%s.png", size, appID))
		}
		fresh := filepath.Join(t.TempDir(), "icon.png")
		run(t, "rsvg-convert", "--width", strconv.Itoa(size), "--height", strconv.Itoa(size), filepath.Join(root, "build/appicon.svg"), "--output", fresh)
		if d := meanDiff(decodePNG(t, fresh), decodePNG(t, path)); d > 0.5 {
			t.Errorf("%s differs from build/appicon.svg rendered now by %.2f per channel: run `make icons`", path, d)
		}
	}
}
