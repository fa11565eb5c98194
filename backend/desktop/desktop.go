// Package desktop shows Wayfinder in a native window with Wails v2
// (WebKitGTK on Linux, WebView2 on Windows, WKWebView on macOS). It is the
// only package that imports Wails: the rest of the backend reaches the
// window through the small interfaces it defines where it uses them (an
// event sink, native dialogs), and is tested without a display.
package desktop

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Options are what the main window shows and binds.
type Options struct {
	// Assets is the built frontend, index.html at its root.
	Assets fs.FS
	// Bind are the services the frontend calls, as window.go.<package>.<Type>.
	Bind []any
	// ErrorFormatter turns a bound method's error into what the frontend's
	// promise rejects with.
	ErrorFormatter func(error) any
	// InstanceID names the app open on one data folder: a second start with
	// the same id brings this window to the front and quits.
	InstanceID string
	// Icon is the window's icon (PNG), shown by the window manager and the
	// task bar on Linux; Windows and macOS take theirs from the executable.
	Icon []byte
	// Started is called once the window exists, with what it can do.
	Started func(Window)
	// Closing is called when the window closes, before Run returns.
	Closing func()
	Log     *slog.Logger
}

// Window is the open window: events to the frontend and native dialogs.
type Window struct{ ctx context.Context }

// Emit sends an event to the frontend.
func (w Window) Emit(name string, payload any) { runtime.EventsEmit(w.ctx, name, payload) }

// OpenFiles asks for documents to import, showing the files patterns
// match ("*.hwp") under filterName.
func (w Window) OpenFiles(title, filterName string, patterns []string) ([]string, error) {
	return runtime.OpenMultipleFilesDialog(w.ctx, runtime.OpenDialogOptions{Title: title,
		Filters: []runtime.FileFilter{{DisplayName: filterName, Pattern: strings.Join(patterns, ";")}}})
}

// OpenFolder asks for a folder.
func (w Window) OpenFolder(title string) (string, error) {
	return runtime.OpenDirectoryDialog(w.ctx, runtime.OpenDialogOptions{Title: title})
}

// OpenZIM asks for a Kiwix ZIM file (an offline Wikipedia), shown under
// filterName.
func (w Window) OpenZIM(title, filterName string) (string, error) {
	return runtime.OpenFileDialog(w.ctx, runtime.OpenDialogOptions{Title: title,
		Filters: []runtime.FileFilter{{DisplayName: filterName, Pattern: "*.zim;*.ZIM"}}})
}

// SaveFile asks where to save a file, showing the files of defaultName's
// extension under filterName.
func (w Window) SaveFile(title, defaultName, filterName string) (string, error) {
	return runtime.SaveFileDialog(w.ctx, runtime.SaveDialogOptions{
		Title: title, DefaultFilename: defaultName,
		Filters: []runtime.FileFilter{{DisplayName: filterName, Pattern: "*" + filepath.Ext(defaultName)}},
	})
}

// OpenPath shows a file or folder in the system's file manager.
func (w Window) OpenPath(path string) error {
	runtime.BrowserOpenURL(w.ctx, (&url.URL{Scheme: "file", Path: path}).String())
	return nil
}

// Run shows the main window until it closes or ctx ends (Ctrl+C in the
// terminal closes it like the close button).
func Run(ctx context.Context, o Options) error {
	if o.Assets == nil {
		return fmt.Errorf("the desktop window has no frontend to show")
	}
	var window atomic.Pointer[context.Context] // the Wails context, once the window exists
	return wails.Run(&options.App{
		Title:     "Wayfinder",
		Width:     1180,
		Height:    800,
		MinWidth:  720,
		MinHeight: 520,
		AssetServer: &assetserver.Options{
			Assets: o.Assets,
		},
		BackgroundColour: &options.RGBA{R: 250, G: 250, B: 249, A: 255},
		OnStartup: func(wctx context.Context) {
			window.Store(&wctx)
			o.Started(Window{wctx})
			go func() {
				<-ctx.Done()
				runtime.Quit(wctx)
			}()
		},
		OnShutdown: func(context.Context) { o.Closing() },
		SingleInstanceLock: &options.SingleInstanceLock{UniqueId: o.InstanceID, OnSecondInstanceLaunch: func(options.SecondInstanceData) {
			if wctx := window.Load(); wctx != nil {
				o.Log.Info("Wayfinder was started again on this data folder: this window comes to the front")
				runtime.WindowUnminimise(*wctx)
				runtime.WindowShow(*wctx)
			}
		}},
		Bind:           o.Bind,
		ErrorFormatter: o.ErrorFormatter,
		// Files dropped on the window reach the page by their paths too
		// (window.runtime.OnFileDrop), so that the chat attaches them as
		// the native dialog's files, read by the backend, with no upload
		// bound; the page's own drop still fires, for where none comes.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		Linux: &linux.Options{
			Icon:                o.Icon,
			ProgramName:         "wayfinder",
			WebviewGpuPolicy:    linux.WebviewGpuPolicyOnDemand,
			WindowIsTranslucent: false,
		},
	})
}

// ShowError shows page (a whole HTML document, from our own template) in a
// small window until it is closed; the page closes it with
// window.runtime.Quit(). With instanceID, a desktop with a session bus
// hands the start over to the app already open under that id instead.
func ShowError(ctx context.Context, page []byte, instanceID string, icon []byte) error {
	var lock *options.SingleInstanceLock
	if instanceID != "" {
		lock = &options.SingleInstanceLock{UniqueId: instanceID}
	}
	return wails.Run(&options.App{
		Title:  "Wayfinder",
		Width:  560,
		Height: 340,
		AssetServer: &assetserver.Options{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write(page)
		})},
		BackgroundColour: &options.RGBA{R: 255, G: 255, B: 255, A: 255},
		OnStartup: func(wctx context.Context) {
			go func() {
				<-ctx.Done()
				runtime.Quit(wctx)
			}()
		},
		SingleInstanceLock: lock,
		Linux:              &linux.Options{Icon: icon, ProgramName: "wayfinder"},
	})
}
