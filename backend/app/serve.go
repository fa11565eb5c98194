package app

import (
	"context"
	"fmt"

	"github.com/wayfinder-app/wayfinder/backend/server"
)

func runServe(ctx context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("serve", "serve [--addr 127.0.0.1:PORT]", &g, s)
	addr := fs.String("addr", "127.0.0.1:8765", "loopback address to listen on; port 0 picks a free one")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: serve takes no arguments, got %q", errUsage, fs.Args())
	}
	ln, err := server.Listen(*addr)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	logger := newLogger(s.err, g.verbose)
	a, err := openApp(ctx, g, "serve", logger)
	if err != nil {
		ln.Close()
		return err
	}
	defer a.Close()
	srv, err := server.New(server.Options{Services: a.Services(), Assets: s.shells.Assets, Describe: describe, Logger: logger})
	if err != nil {
		ln.Close()
		return err
	}
	a.events.attach(srv)
	fmt.Fprintf(s.out, "Wayfinder is running at http://%s/?token=%s\n", ln.Addr(), srv.Token())
	fmt.Fprintln(s.out, "Open that address in your browser. Press Ctrl+C to stop.")
	return srv.Serve(ctx, ln)
}
