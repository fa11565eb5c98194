// Command wayfinder is a local-first assistant: a desktop window by default,
// the same UI in a browser with `serve`, one turn in the terminal with `ask`,
// and a setup check with `doctor`. See README.md.
//
// This package only wires: the command line and the backend live in
// backend/app, the window in backend/desktop (app.go), and the built
// frontend is embedded here, where its files are.
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
