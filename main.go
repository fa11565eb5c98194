// Command wayfinder is a local-first assistant: a desktop window by default,
// the same UI in a browser with `serve`, one turn in the terminal with `ask`,
// and a setup check with `doctor`. See README.md.
//
// This package only wires: the command line and the backend live in
// backend/app, the window in backend/desktop (app.go), and what is
// built into the binary (the frontend, the icon) is embedded here, where
// the files are.
package main

import (
	"context"
	"embed"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"github.com/wayfinder-app/wayfinder/backend/app"
)

//go:embed all:frontend/dist
var dist embed.FS

// icon is the window's icon on Linux (Windows and macOS take the one in the
// executable or the app bundle), rendered from build/appicon.svg. 256 px:
// GTK silently sets no icon at all from the 1024 px appicon.png, too big for
// the X property it goes in (the desktop smoke checks _NET_WM_ICON).
//
//go:embed build/linux/icons/hicolor/256x256/apps/io.github.wayfinder_app.Wayfinder.png
var icon []byte

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	assets, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // the embed above guarantees the folder
	}
	code := app.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, shells(assets))
	stop()
	os.Exit(code)
}
