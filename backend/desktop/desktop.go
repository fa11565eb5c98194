package main

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sync/atomic"

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

// wailsShell gives the app native dialogs.
type wailsShell struct{ ctx context.Context }

var documentFilter = []runtime.FileFilter{{DisplayName: "Documents (PDF, Markdown, text, JSON)", Pattern: "*.pdf;*.md;*.markdown;*.txt;*.json;*.jsonl"}}

func (w wailsShell) OpenFiles(title string) ([]string, error) {
	return runtime.OpenMultipleFilesDialog(w.ctx, runtime.OpenDialogOptions{Title: title, Filters: documentFilter})
}

func (w wailsShell) OpenFolder(title string) (string, error) {
	return runtime.OpenDirectoryDialog(w.ctx, runtime.OpenDialogOptions{Title: title})
}

func (w wailsShell) SaveFile(title, defaultName string) (string, error) {
	return runtime.SaveFileDialog(w.ctx, runtime.SaveDialogOptions{
		Title: title, DefaultFilename: defaultName,
		Filters: []runtime.FileFilter{{DisplayName: "Markdown", Pattern: "*.md"}},
	})
}

func (w wailsShell) OpenPath(path string) error {
	runtime.BrowserOpenURL(w.ctx, (&url.URL{Scheme: "file", Path: path}).String())
	return nil
}

func runDesktop(ctx context.Context, g globals, s stdio) error {
	logger := newLogger(s.err, g.verbose)
	a, err := openApp(ctx, g, "desktop", logger)
	if err != nil {
		var lock *options.SingleInstanceLock
		if dir, derr := g.resolvedDataDir(); derr == nil && errors.Is(err, errDataDirBusy) {
			lock = singleInstance(dir, nil)
		}
		return errors.Join(err, showStartupError(ctx, err, lock))
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
	var window atomic.Pointer[context.Context] // the Wails context, once the window exists
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
			window.Store(&wctx)
			a.events.attach(wailsSink{wctx})
			a.attachShell(wailsShell{wctx})
			// Ctrl+C in the terminal closes the window like the close button.
			go func() {
				<-ctx.Done()
				runtime.Quit(wctx)
			}()
		},
		OnShutdown: func(context.Context) { a.chat.Shutdown() },
		SingleInstanceLock: singleInstance(a.dataDir, func(options.SecondInstanceData) {
			if wctx := window.Load(); wctx != nil {
				logger.Info("Wayfinder was started again on this data folder: this window comes to the front")
				runtime.WindowUnminimise(*wctx)
				runtime.WindowShow(*wctx)
			}
		}),
		Bind:           binds,
		ErrorFormatter: func(err error) any { return describe(err) },
		Linux: &linux.Options{
			ProgramName:         "wayfinder",
			WebviewGpuPolicy:    linux.WebviewGpuPolicyOnDemand,
			WindowIsTranslucent: false,
		},
	})
}

// singleInstance makes a second start of the desktop app on the same data
// folder bring the open window to the front and quit, which is what a
// person who clicked the icon again wants (Wails does it over D-Bus on
// Linux). Without a session bus, the second start, which found the folder
// locked, says so in a window of its own.
func singleInstance(dataDir string, onSecond func(options.SecondInstanceData)) *options.SingleInstanceLock {
	sum := sha256.Sum256([]byte(dataDir))
	return &options.SingleInstanceLock{UniqueId: "wayfinder-" + hex.EncodeToString(sum[:8]), OnSecondInstanceLaunch: onSecond}
}
