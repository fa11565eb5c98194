package server

import (
	"container/list"
	"context"
	"net"
	"sync"
	"sync/atomic"
)

// Any local program can connect to serve's port, with or without the
// token. Without limits, a thousand idle connections exhaust the process's
// open files (1,024 by default on Linux) and the person's own page can no
// longer connect. limitListener caps connections in total and per client
// address and, when a new one would exceed a cap, closes the oldest
// connection that never made a request with the token before it refuses
// anything: the person's page, which authenticates on its first request,
// keeps its connections, and an attacker's only push out each other.
// (On loopback every local program shares 127.0.0.1, so the per-client cap
// mostly keeps one runaway client from taking every slot from a second
// address; the eviction order is what protects the person.)
type limitListener struct {
	net.Listener
	max, perClient int

	mu       sync.Mutex
	conns    *list.List // of *trackedConn, oldest first
	byClient map[string]int
}

func newLimitListener(ln net.Listener, max, perClient int) *limitListener {
	return &limitListener{Listener: ln, max: max, perClient: perClient, conns: list.New(), byClient: map[string]int{}}
}

// trackedConn is a connection the limiter counts.
type trackedConn struct {
	net.Conn
	l      *limitListener
	client string
	elem   *list.Element // nil once untracked; under l.mu
	authed atomic.Bool
	once   sync.Once
}

func (c *trackedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.untrack(c) })
	return err
}

// Accept returns the next connection admitted under the caps.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		c := &trackedConn{Conn: nc, l: l, client: clientOf(nc.RemoteAddr())}
		victims, ok := l.admit(c)
		for _, v := range victims {
			_ = v.Close()
		}
		if ok {
			return c, nil
		}
		_ = nc.Close() // every slot holds an authenticated connection
	}
}

// admit counts c in, choosing the connections to close to make room;
// victims are untracked already, so the counts hold at once.
func (l *limitListener) admit(c *trackedConn) (victims []*trackedConn, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byClient[c.client] >= l.perClient {
		v := l.oldestUnauthenticated(c.client)
		if v == nil {
			return nil, false
		}
		l.remove(v)
		victims = append(victims, v)
	}
	if l.conns.Len() >= l.max {
		v := l.oldestUnauthenticated("")
		if v == nil {
			return victims, false
		}
		l.remove(v)
		victims = append(victims, v)
	}
	c.elem = l.conns.PushBack(c)
	l.byClient[c.client]++
	return victims, true
}

// oldestUnauthenticated of client ("" for any); under l.mu.
func (l *limitListener) oldestUnauthenticated(client string) *trackedConn {
	for e := l.conns.Front(); e != nil; e = e.Next() {
		c := e.Value.(*trackedConn)
		if !c.authed.Load() && (client == "" || c.client == client) {
			return c
		}
	}
	return nil
}

func (l *limitListener) untrack(c *trackedConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.remove(c)
}

// remove untracks c; under l.mu.
func (l *limitListener) remove(c *trackedConn) {
	if c.elem == nil {
		return
	}
	l.conns.Remove(c.elem)
	c.elem = nil
	if l.byClient[c.client]--; l.byClient[c.client] <= 0 {
		delete(l.byClient, c.client)
	}
}

// counts reports the tracked connections in total and of client.
func (l *limitListener) counts(client string) (total, ofClient int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.conns.Len(), l.byClient[client]
}

func clientOf(a net.Addr) string {
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

type connKey struct{}

// withConn is http.Server.ConnContext: it lets the guard mark the request's
// connection authenticated.
func withConn(ctx context.Context, c net.Conn) context.Context {
	if tc, ok := c.(*trackedConn); ok {
		return context.WithValue(ctx, connKey{}, tc)
	}
	return ctx
}

// markAuthenticated records that the connection of ctx made a request with
// the token.
func markAuthenticated(ctx context.Context) {
	if tc, ok := ctx.Value(connKey{}).(*trackedConn); ok {
		tc.authed.Store(true)
	}
}
