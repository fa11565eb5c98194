package main

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

//go:embed all:frontend/dist
var embedded embed.FS

// assets is the built frontend with index.html at its root.
func assets() (fs.FS, error) {
	sub, err := fs.Sub(embedded, "frontend/dist")
	if err != nil {
		return nil, fmt.Errorf("frontend assets: %w", err)
	}
	return sub, nil
}

// wailsSink sends events through the Wails runtime; this file is the only
// place that talks to it.
type wailsSink struct{ ctx context.Context }

func (w wailsSink) Emit(name string, payload any) { runtime.EventsEmit(w.ctx, name, payload) }

func runDesktop(ctx context.Context, g globals, s stdio) error {
	logger := newLogger(s.err, g.verbose)
	a, err := openApp(ctx, g, "desktop", logger)
	if err != nil {
		return err
	}
	defer a.Close()
	ui, err := assets()
	if err != nil {
		return err
	}
	var binds []any
	for _, svc := range a.services() {
		binds = append(binds, svc)
	}
	return wails.Run(&options.App{
		Title:     "Wayfinder",
		Width:     1180,
		Height:    800,
		MinWidth:  720,
		MinHeight: 520,
		AssetServer: &assetserver.Options{
			Assets: ui,
		},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 249, A: 255},
		OnStartup: func(wctx context.Context) {
			a.events.attach(wailsSink{wctx})
			// Ctrl+C in the terminal closes the window like the close button.
			go func() {
				<-ctx.Done()
				runtime.Quit(wctx)
			}()
		},
		OnShutdown:     func(context.Context) { a.chat.Shutdown() },
		Bind:           binds,
		ErrorFormatter: func(err error) any { return describe(err) },
		Linux: &linux.Options{
			ProgramName:         "wayfinder",
			WebviewGpuPolicy:    linux.WebviewGpuPolicyOnDemand,
			WindowIsTranslucent: false,
		},
	})
}
