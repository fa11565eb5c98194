package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLimitListenerEvictsUnauthenticatedFirst: at the cap, a new
// connection pushes out the oldest one that never authenticated; when
// every slot is authenticated, the new one is refused instead; the
// per-client cap applies to one address while another still gets in.
func TestLimitListenerEvictsUnauthenticatedFirst(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newLimitListener(inner, 3, 2)
	defer l.Close()
	accepted := make(chan *trackedConn, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c.(*trackedConn)
		}
	}()
	dial := func(from string) net.Conn {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	next := func() *trackedConn {
		t.Helper()
		select {
		case c := <-accepted:
			return c
		case <-time.After(5 * time.Second):
			t.Fatal("no connection accepted")
			return nil
		}
	}
	closed := func(c net.Conn) bool {
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		_, err := c.Read(make([]byte, 1))
		return err == io.EOF || (err != nil && !strings.Contains(err.Error(), "timeout"))
	}

	a := dial("127.0.0.1")
	ta := next()
	ta.authed.Store(true) // the person's page
	b := dial("127.0.0.1")
	next()
	// Client 127.0.0.1 is at its cap of 2: a third connection from it
	// closes b, the unauthenticated one, not a.
	c := dial("127.0.0.1")
	tc := next()
	if !closed(b) {
		t.Fatal("the oldest unauthenticated connection was not closed")
	}
	if total, mine := l.counts("127.0.0.1"); total != 2 || mine != 2 {
		t.Fatalf("counts after eviction: %d total, %d of the client", total, mine)
	}
	// Another address still gets in under the total cap of 3.
	dial("127.0.0.2")
	next()
	// Total cap reached: a fourth address pushes out c, the oldest
	// unauthenticated one.
	dial("127.0.0.3")
	next()
	if !closed(c) {
		t.Fatal("at the total cap, the oldest unauthenticated connection stayed")
	}
	_ = tc
	// Authenticate everything left: a new connection is refused.
	l.mu.Lock()
	for e := l.conns.Front(); e != nil; e = e.Next() {
		e.Value.(*trackedConn).authed.Store(true)
	}
	l.mu.Unlock()
	d := dial("127.0.0.4")
	if !closed(d) {
		t.Fatal("a connection beyond the cap of authenticated ones was kept")
	}
	if closed(a) {
		t.Fatal("an authenticated connection was closed")
	}
}

// TestRefusedRequestsCloseTheirConnection: a request without the token is
// answered 401 with Connection: close and the server hangs up, so it
// cannot keep a connection (and an open file) for free.
func TestRefusedRequestsCloseTheirConnection(t *testing.T) {
	s, err := New(Options{Services: map[string]any{"Greeter": greeter{}}, Token: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, ln)
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /api/Greeter/Nothing HTTP/1.1\r\nHost: "+ln.Addr().String()+"\r\nContent-Length: 2\r\n\r\n[]")
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !resp.Close {
		t.Fatalf("status %d, close %v", resp.StatusCode, resp.Close)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := r.ReadByte(); err != io.EOF {
		t.Fatalf("the connection stayed open: %v", err)
	}
}

func TestConnCaps(t *testing.T) {
	for _, tt := range []struct{ files, total, per int }{{1024, 896, 448}, {256, 128, 64}, {100, 16, 8}, {1 << 20, 4096, 2048}} {
		if total, per := connCaps(tt.files); total != tt.total || per != tt.per {
			t.Errorf("connCaps(%d) = %d, %d; want %d, %d", tt.files, total, per, tt.total, tt.per)
		}
	}
}
