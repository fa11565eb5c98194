// Package server is `wayfinder serve`: the desktop UI in a browser. It calls
// the very same bound service values that the Wails window binds, through the
// same calling convention (a method name and a JSON array of arguments), so
// the frontend needs one transport per shell and nothing else differs.
//
// It listens on loopback only, and every API request must carry the random
// token printed in the URL (kept in the data folder across restarts,
// token.go): other local users and web pages the person visits
// (which can reach 127.0.0.1 too) must not be able to read their chats. A
// foreign Origin or Host header is refused as well (DNS rebinding).
//
// Any local program can still connect, so the server must not be starved:
// timeouts on every phase of a request, a cap on connections in total and
// per client with unauthenticated ones closed first (limit.go), and
// requests without the token answered and their connection closed at once.
package server

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// maxBody bounds a request: large enough for a document uploaded as base64
// (64 MB), and for a 2 MB paste to reach the chat service, which refuses it
// with a clear message rather than a transport error.
const maxBody = 96 << 20

// Timeouts. A connection that sends nothing is closed after headerTimeout;
// a whole request (a 96 MB upload included) must arrive within readTimeout
// and an answer be taken within writeTimeout, measured from the end of the
// method call, however long the call itself took. The event stream has no
// overall deadline, only one per frame (frameTimeout): a browser that stops
// reading is dropped, one that keeps reading stays.
const (
	headerTimeout = 5 * time.Second
	readTimeout   = 2 * time.Minute
	writeTimeout  = 30 * time.Second
	idleTimeout   = time.Minute
	frameTimeout  = 30 * time.Second
)

// reservedFiles are the open files kept for everything but connections:
// the database, vectors, memory files, documents being imported, Ollama.
const reservedFiles = 128

// Options configure a Server.
type Options struct {
	// Services are the bound values by name, e.g. "ChatService": *ChatService.
	Services map[string]any
	// Assets is the built frontend (index.html at its root).
	Assets fs.FS
	// Token guards the API; New makes one when empty. `wayfinder serve`
	// passes the one kept in the data folder (LoadToken).
	Token string
	// Describe turns a method's error into what the person sees (the
	// desktop shell uses the same function as Wails' ErrorFormatter).
	Describe func(error) api.ErrorInfo
	Logger   *slog.Logger
}

// Server serves the UI, the API and the event stream.
type Server struct {
	opt    Options
	events *hub
	mux    *http.ServeMux
}

// New returns a Server. It also is the EventSink the services emit to.
func New(opt Options) (*Server, error) {
	if opt.Token == "" {
		token, err := newToken()
		if err != nil {
			return nil, err
		}
		opt.Token = token
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.Describe == nil {
		opt.Describe = func(err error) api.ErrorInfo { return api.ErrorInfo{Code: api.ErrInternal, Message: err.Error()} }
	}
	s := &Server{opt: opt, events: newHub(), mux: http.NewServeMux()}
	s.mux.HandleFunc("POST /api/{service}/{method}", s.guard(s.call))
	s.mux.HandleFunc("GET /api/events", s.guard(s.stream))
	if opt.Assets != nil {
		s.mux.Handle("GET /", spa(opt.Assets))
	}
	return s, nil
}

// Token is the secret that must accompany API requests.
func (s *Server) Token() string { return s.opt.Token }

// Emit sends an event to every connected browser.
func (s *Server) Emit(name string, payload any) { s.events.publish(name, payload) }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopbackHost(r.Host) {
		w.Header().Set("Connection", "close")
		http.Error(w, "wayfinder serve answers only to 127.0.0.1 or localhost", http.StatusForbidden)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// ErrNotLoopback is returned for a listen address that is not on loopback.
var ErrNotLoopback = errors.New("wayfinder serve listens on loopback only")

// Listen opens addr after checking that it is a loopback address.
func Listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w (use 127.0.0.1:PORT)", addr, err)
	}
	if !loopbackName(host) {
		return nil, fmt.Errorf("listen address %q: %w: use 127.0.0.1:PORT (another address would expose your chats to the network)", addr, ErrNotLoopback)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// connCaps derives the connection caps from the open-file limit: all but
// reservedFiles in total (at most 4,096), half of that per client.
func connCaps(openFiles int) (total, perClient int) {
	total = min(max(openFiles-reservedFiles, 16), 4096)
	return total, max(total/2, 8)
}

// Serve runs until ctx ends, then shuts down gracefully.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: headerTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ConnContext:       withConn,
		ErrorLog:          slog.NewLogLogger(s.opt.Logger.Handler(), slog.LevelDebug),
	}
	total, perClient := connCaps(openFileLimit())
	limited := newLimitListener(ln, total, perClient)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(limited) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	s.events.close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shut down server: %w", err)
	}
	return nil
}

func loopbackName(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	return loopbackName(strings.Trim(host, "[]"))
}

// guard checks the token and the Origin before a handler runs. The token
// comes in the Authorization header, or as ?token= for EventSource, which
// cannot set headers. A refused request is answered and its connection
// closed at once; an accepted one marks its connection authenticated,
// which keeps it from being closed to make room (limit.go).
func (s *Server) guard(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && origin != "http://"+r.Host {
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusForbidden, api.ErrorInfo{Code: api.ErrForeignPage, Message: "Requests from other web pages are refused."})
			return
		}
		token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if token == "" {
			token = r.URL.Query().Get("token")
		}
		if subtle.ConstantTimeCompare([]byte(token), []byte(s.opt.Token)) != 1 {
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusUnauthorized, api.ErrorInfo{
				Code: api.ErrUnauthorized, Message: "Missing or wrong access token.",
				Hint: "Open the full address that `wayfinder serve` printed, including ?token=…",
			})
			return
		}
		markAuthenticated(r.Context())
		next(w, r)
	}
}

var errorType = reflect.TypeFor[error]()

// call invokes one bound method the way Wails does: positional JSON
// arguments in, (result, error) out.
func (s *Server) call(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("service") + "." + r.PathValue("method")
	svc, ok := s.opt.Services[r.PathValue("service")]
	var m reflect.Value
	if ok {
		m = reflect.ValueOf(svc).MethodByName(r.PathValue("method"))
	}
	if !m.IsValid() {
		writeError(w, http.StatusNotFound, api.ErrorInfo{Code: api.ErrNoSuchMethod, Message: "No such method: " + name})
		return
	}
	var raw []json.RawMessage
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(&raw); err != nil {
		writeError(w, http.StatusBadRequest, api.ErrorInfo{Code: api.ErrBadRequest, Message: "The request body must be a JSON array of arguments: " + err.Error()})
		return
	}
	mt := m.Type()
	if len(raw) != mt.NumIn() {
		writeError(w, http.StatusBadRequest, api.ErrorInfo{Code: api.ErrBadRequest, Message: fmt.Sprintf("%s takes %d arguments, got %d", name, mt.NumIn(), len(raw))})
		return
	}
	args := make([]reflect.Value, len(raw))
	for i, a := range raw {
		v := reflect.New(mt.In(i))
		if err := json.Unmarshal(a, v.Interface()); err != nil {
			writeError(w, http.StatusBadRequest, api.ErrorInfo{Code: api.ErrBadRequest, Message: fmt.Sprintf("argument %d of %s: %v", i+1, name, err)})
			return
		}
		args[i] = v.Elem()
	}
	// The call may take long (an embedding model loading): the write
	// deadline starts when it returns.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{}) // the body is read; idleTimeout takes over after the answer
	_ = rc.SetWriteDeadline(time.Time{})
	out := m.Call(args)
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if n := len(out); n > 0 && mt.Out(n-1) == errorType {
		if err, _ := out[n-1].Interface().(error); err != nil {
			info := s.opt.Describe(err)
			writeError(w, api.HTTPStatus(info.Code), info)
			return
		}
		out = out[:n-1]
	}
	w.Header().Set("Content-Type", "application/json")
	if len(out) == 0 {
		_, _ = w.Write([]byte("null"))
		return
	}
	if err := json.NewEncoder(w).Encode(out[0].Interface()); err != nil {
		s.opt.Logger.Warn("write response", "method", name, "err", err)
	}
}

func writeError(w http.ResponseWriter, status int, info api.ErrorInfo) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(info)
}

// spa serves the built frontend, answering unknown paths with index.html.
func spa(assets fs.FS) http.Handler {
	files := http.FileServerFS(assets)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		path := strings.TrimPrefix(r.URL.Path, "/")
		if path != "" {
			if _, err := fs.Stat(assets, path); err == nil {
				files.ServeHTTP(w, r)
				return
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		http.ServeFileFS(w, r, assets, "index.html")
	})
}
