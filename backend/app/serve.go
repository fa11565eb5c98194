package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"

	"github.com/wayfinder-app/wayfinder/backend/server"
)

func runServe(ctx context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("serve", "serve [--addr 127.0.0.1:PORT]", &g, s)
	addr := fs.String("addr", "127.0.0.1:8765", "loopback address to listen on; port 0 picks a free one")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageMistake("usage.noArguments", "command", "serve", "args", quotedList(fs.Args()))
	}
	ln, err := server.Listen(*addr)
	if err != nil {
		return listenError(*addr, err, cliLanguage(settingsLanguage(ctx, g)))
	}
	logger := newLogger(s.err, g.verbose)
	a, err := openApp(ctx, g, "serve", logger)
	if err != nil {
		ln.Close()
		return err
	}
	defer a.Close()
	srv, err := server.New(server.Options{Services: a.Services(), Assets: s.shells.Assets, Describe: a.Describe, Logger: logger})
	if err != nil {
		ln.Close()
		return err
	}
	a.events.attach(srv)
	li := a.lang()
	fmt.Fprintln(s.out, say("serve.running", li, "url", fmt.Sprintf("http://%s/?token=%s", ln.Addr(), srv.Token())))
	fmt.Fprintln(s.out, say("serve.open", li))
	return srv.Serve(ctx, ln)
}

// listenError says why serve could not listen: an address that is not
// allowed is a command-line mistake; a port in use, or one the system
// refuses, is not, and the person needs the flag that picks another. It
// is said in lang (cliLanguage), as `ask` says its progress.
func listenError(addr string, err error, lang string) error {
	var op *net.OpError
	if !errors.As(err, &op) {
		return fmt.Errorf("%w: %v", errUsage, err) // not loopback, or not HOST:PORT
	}
	li := langIndex(lang)
	key := "serve.cannotListen"
	if errors.Is(err, syscall.EADDRINUSE) {
		key = "serve.inUse"
	}
	return &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput,
		Message: say(key, li, "addr", addr, "error", op.Err.Error()), Hint: say(key+".hint", li)}, Err: err}
}
