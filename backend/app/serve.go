package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/chat"

	"github.com/wayfinder-app/wayfinder/backend/server"
)

func runServe(ctx context.Context, g globals, args []string, s stdio) error {
	fs := subFlags("serve", "serve [--addr 127.0.0.1:PORT] [--new-token]", &g, s)
	addr := fs.String("addr", "127.0.0.1:8765", "loopback address to listen on; port 0 picks a free one")
	renew := fs.Bool("new-token", false, "make a new access token (kept in the data folder, file "+server.TokenFile+"): addresses printed before stop working. Without it the token of the last start is kept, so open tabs go on working")
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
	// The token of the last start, read as it was found, before openApp
	// makes the data folder's files private.
	var token string
	if !*renew {
		dir, err := g.resolvedDataDir()
		if err == nil {
			token, err = server.ReadToken(dir)
		}
		if err != nil {
			ln.Close()
			return tokenError(err, langIndex(cliLanguage(settingsLanguage(ctx, g))))
		}
	}
	logger := newLogger(s.err, g.verbose)
	a, err := openApp(ctx, g, "serve", logger)
	if err != nil {
		ln.Close()
		return err
	}
	defer a.Close()
	li := a.lang()
	made := token == ""
	if made { // the first start, or --new-token: written with the data folder locked
		if token, err = server.NewToken(a.dataDir); err != nil {
			ln.Close()
			return tokenError(err, li)
		}
	}
	srv, err := server.New(server.Options{Services: a.Services(), Assets: s.shells.Assets, Describe: a.Describe, Logger: logger, Token: token})
	if err != nil {
		ln.Close()
		return err
	}
	a.events.attach(srv)
	if made && *renew {
		fmt.Fprintln(s.out, say("serve.newToken", li))
	}
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
	switch {
	case errors.Is(err, server.ErrNotLoopback):
		return usageMistake("usage.notLoopback", "addr", strconv.Quote(addr))
	case !errors.As(err, &op):
		return usageMistake("usage.listenAddr", "addr", strconv.Quote(addr)) // not HOST:PORT
	}
	li := langIndex(lang)
	key := "serve.cannotListen"
	if errors.Is(err, syscall.EADDRINUSE) {
		key = "serve.inUse"
	}
	return &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput,
		Message: say(key, li, "addr", addr, "error", op.Err.Error()), Hint: say(key+".hint", li)}, Err: err}
}

// tokenError says why serve will not use its token file, and what to do:
// --new-token makes a new one (a file others could read may have given the
// token away), or, for a folder or a link in its place, removing that.
// The token is never part of it.
func tokenError(err error, li int) error {
	var te *server.TokenError
	if !errors.As(err, &te) {
		return err
	}
	key := "serve.token." + string(te.Problem)
	return &chat.Error{Info: api.ErrorInfo{Code: api.ErrInvalidInput,
		Message: say(key, li, "path", te.Path, "mode", fmt.Sprintf("%04o", te.Mode.Perm())), Hint: say(key+".hint", li, "path", te.Path)}, Err: err}
}
