package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"html/template"
)

// runDesktop opens the app in the desktop window. When it cannot start, a
// small window says why: launched from a desktop menu, there is no terminal
// to read the error in, and a window that never appears looks like a
// crash. With the open app's instance id, a start that found the data
// folder in use brings that app's window to the front and quits before
// showing it.
func runDesktop(ctx context.Context, g globals, s stdio) error {
	if s.shells.Window == nil {
		return errors.New("this build of Wayfinder has no desktop window: use `wayfinder serve`")
	}
	a, err := openApp(ctx, g, "desktop", newLogger(s.err, g.verbose))
	if err != nil {
		var instance string
		if dir, derr := g.resolvedDataDir(); derr == nil && errors.Is(err, errDataDirBusy) {
			instance = instanceID(dir)
		}
		// In the language chosen in Settings, as the command line speaks
		// (cliLanguage): read from the data folder even while another
		// Wayfinder has it open; the system's when it cannot be read.
		page, perr := startupErrorPage(cliLanguage(settingsLanguage(ctx, g)), err)
		if perr != nil {
			return errors.Join(err, perr)
		}
		return errors.Join(err, s.shells.ErrorWindow(ctx, page, instance))
	}
	defer a.Close()
	return s.shells.Window(ctx, a)
}

// instanceID names the app open on a data folder: a second start of the
// desktop app on the same folder brings that window to the front and quits,
// which is what a person who clicked the icon again wants (Wails does it
// over D-Bus on Linux).
func instanceID(dataDir string) string {
	sum := sha256.Sum256([]byte(dataDir))
	return "wayfinder-" + hex.EncodeToString(sum[:8])
}

// startupText is the startup error window's wording in one language.
type startupText struct {
	Heading, Problem, Details, Close string
	Next                             template.HTML // our own text, with <code> for commands
}

var startupTexts = map[string]struct{ busy, other startupText }{
	"en": {
		busy: startupText{Heading: "Wayfinder is already open",
			Problem: "Another Wayfinder is using this data folder, and two at once could overwrite each other's work.",
			Next:    "Switch to the Wayfinder window that is already open. If there is none, a <code>wayfinder serve</code> or <code>wayfinder ask</code> in a terminal is still running: stop it, then start Wayfinder again.",
			Details: "Details", Close: "Close"},
		other: startupText{Heading: "Wayfinder could not start",
			Problem: "Something went wrong while Wayfinder was starting; the details below say what.",
			Next:    "Run <code>wayfinder doctor</code> in a terminal to check the setup, or start Wayfinder with <code>--data-dir</code> to use another folder.",
			Details: "Details", Close: "Close"},
	},
	"ko": {
		busy: startupText{Heading: "Wayfinder가 이미 열려 있습니다",
			Problem: "다른 Wayfinder가 이 데이터 폴더를 쓰고 있습니다. 둘이 동시에 쓰면 서로의 작업을 덮어쓸 수 있습니다.",
			Next:    "이미 열려 있는 Wayfinder 창으로 전환하세요. 열린 창이 없다면 터미널에서 <code>wayfinder serve</code>나 <code>wayfinder ask</code>가 아직 실행 중입니다. 그것을 끝낸 뒤 Wayfinder를 다시 시작하세요.",
			Details: "자세한 내용", Close: "닫기"},
		other: startupText{Heading: "Wayfinder를 시작하지 못했습니다",
			Problem: "Wayfinder를 시작하는 중에 문제가 생겼습니다. 아래 자세한 내용에 원인이 있습니다.",
			Next:    "터미널에서 <code>wayfinder doctor</code>를 실행해 설정을 확인하거나, <code>--data-dir</code>로 다른 폴더를 지정해 Wayfinder를 시작하세요.",
			Details: "자세한 내용", Close: "닫기"},
	},
}

var startupTemplate = template.Must(template.New("startup").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<title>Wayfinder</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif; }
  body { margin: 0; padding: 28px 32px; background: light-dark(#ffffff, #17191d); color: light-dark(#1d2127, #e6e8eb); font-size: 14px; line-height: 1.55; }
  html:lang(ko) { word-break: keep-all; } /* Korean breaks between words, not inside them */
  h1 { margin: 0 0 12px; font-size: 18px; }
  p { margin: 0 0 10px; }
  details { margin: 14px 0 20px; color: light-dark(#5f6773, #9aa2ad); }
  code, pre { font-family: ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono CJK KR", monospace; }
  pre { white-space: pre-wrap; word-break: break-word; font-size: 12px; margin: 8px 0 0; }
  button { font: inherit; padding: 6px 18px; border-radius: 6px; border: 1px solid transparent; background: light-dark(#2f62d0, #7aa5ff); color: light-dark(#ffffff, #0e1420); cursor: pointer; }
</style>
</head>
<body>
<h1>{{.Text.Heading}}</h1>
<p>{{.Text.Problem}}</p>
<p>{{.Text.Next}}</p>
<details{{if .Open}} open{{end}}><summary>{{.Text.Details}}</summary><pre>{{.Cause}}</pre></details>
<button id="close" autofocus onclick="window.runtime.Quit()">{{.Text.Close}}</button>
<script>document.addEventListener("keydown", (e) => { if (e.key === "Escape") window.runtime.Quit(); });</script>
</body>
</html>
`))

// startupErrorPage renders the window's page in lang (Korean or English)
// for the error that stopped the start.
func startupErrorPage(lang string, cause error) ([]byte, error) {
	texts, ok := startupTexts[lang]
	if !ok {
		lang, texts = "en", startupTexts["en"]
	}
	busy := errors.Is(cause, errDataDirBusy)
	text := texts.other
	if busy {
		text = texts.busy
	}
	var b bytes.Buffer
	err := startupTemplate.Execute(&b, struct {
		Lang  string
		Text  startupText
		Cause string
		Open  bool // the cause is the news, unless the heading already says it
	}{lang, text, cause.Error(), !busy})
	return b.Bytes(), err
}
