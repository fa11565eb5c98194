// Command hello is the Wails hello-world the performance report measures
// Wayfinder's window against: the same Wails version, build tags and
// window options, one bound method and a page that calls it once mounted,
// so "frontend ready" means the same thing in both.
//
// Build: go build -tags desktop,production,webkit2_41 -ldflags "-s -w" ./tests/bench/hello
package main

import (
	"embed"
	"fmt"
	"log/slog"
	"os"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

//go:embed dist
var assets embed.FS

// App is the one bound service.
type App struct{ log *slog.Logger }

// Ready is called by the page once it has rendered; the log line is what
// the benchmark waits for, as it does for Wayfinder.
func (a *App) Ready(greeting string) string {
	a.log.Info("frontend ready", "greeting", greeting)
	return "hello, " + greeting
}

func main() {
	app := &App{log: slog.New(slog.NewTextHandler(os.Stderr, nil))}
	err := wails.Run(&options.App{
		Title:            "Hello",
		Width:            1180,
		Height:           800,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 249, A: 255},
		Bind:             []any{app},
		Linux:            &linux.Options{ProgramName: "hello", WebviewGpuPolicy: linux.WebviewGpuPolicyOnDemand},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "hello:", err)
		os.Exit(1)
	}
}
