package main

import (
	"context"
	"io/fs"

	"github.com/wayfinder-app/wayfinder/backend/app"
	"github.com/wayfinder-app/wayfinder/backend/desktop"
)

// shells wires the app's bound services into Wails: the desktop window
// binds them (the frontend calls window.go.app.ChatService.Send and so on,
// see frontend/src/api/transport.ts), sends the app's events through the
// Wails runtime and gives it Wails' native dialogs. Serve mode uses the
// same services and assets over HTTP (backend/server).
func shells(assets fs.FS) app.Shells {
	return app.Shells{
		Assets: assets,
		Window: func(ctx context.Context, a *app.App) error {
			var bind []any
			for _, svc := range a.Services() {
				bind = append(bind, svc)
			}
			return desktop.Run(ctx, desktop.Options{
				Assets:         assets,
				Bind:           bind,
				ErrorFormatter: func(err error) any { return a.Describe(err) },
				InstanceID:     a.InstanceID(),
				Icon:           icon,
				Started: func(w desktop.Window) {
					a.AttachEvents(w)
					a.AttachShell(w)
				},
				Closing: a.Shutdown,
				Log:     a.Log(),
			})
		},
		ErrorWindow: func(ctx context.Context, page []byte, instanceID string) error {
			return desktop.ShowError(ctx, page, instanceID, icon)
		},
	}
}
