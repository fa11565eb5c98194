package tools

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const searxngReply = `{"query":"ai video","results":[
 {"title":"Runway","url":"https://runwayml.com","content":"Generative video"},
 {"title":"Bad link","url":"javascript:alert(1)","content":"x"},
 {"title":"Pika","url":"https://pika.art","content":"Short clips"},
 {"title":"Third","url":"https://example.org/3","content":"c"}]}`

func TestSearXNG(t *testing.T) {
	tests := []struct {
		name      string
		handler   http.HandlerFunc
		n         int
		wantTitle []string
		wantErr   string
	}{
		{"results, unsafe link dropped, capped", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/base/search" || r.URL.Query().Get("format") != "json" || r.URL.Query().Get("q") != "ai 영상 & video" {
				http.Error(w, "bad request "+r.URL.String(), http.StatusBadRequest)
				return
			}
			w.Write([]byte(searxngReply))
		}, 2, []string{"Runway", "Pika"}, ""},
		{"json format disabled", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) }, 5, nil, "search.formats"},
		{"server error", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) }, 5, nil, "HTTP 502"},
		{"malformed json", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"results": [`)) }, 5, nil, "decode response"},
		{"no results", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"results": []}`)) }, 5, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			p, err := NewSearXNG(srv.URL+"/base/", srv.Client())
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Search(context.Background(), "ai 영상 & video", tt.n)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, r := range got {
				titles = append(titles, r.Title)
			}
			if strings.Join(titles, ",") != strings.Join(tt.wantTitle, ",") {
				t.Errorf("titles = %v, want %v", titles, tt.wantTitle)
			}
		})
	}
}

func TestNewSearXNGRejectsBadURL(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "localhost:8888", "http://"} {
		if _, err := NewSearXNG(u, nil); err == nil {
			t.Errorf("NewSearXNG(%q) accepted", u)
		}
	}
}

func TestWebSearchTool(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(searxngReply)) }))
	defer srv.Close()
	p, _ := NewSearXNG(srv.URL, srv.Client())

	reg := mustRegistry(t, NewCalculator(), NewWebSearch(p))
	for _, s := range reg.Schemas() {
		if s.Function.Name == "web_search" {
			t.Fatal("web_search listed while off")
		}
	}
	if out := reg.Run(context.Background(), Call{Name: "web_search", Args: map[string]any{"query": "x"}}); !errors.Is(out.Err, ErrDisabled) {
		t.Fatalf("off web_search ran: %+v", out)
	}
	reg, _ = reg.WithEnabled("web_search", true)

	out := reg.Run(context.Background(), Call{Name: "web_search", Args: map[string]any{"query": "ai video", "max_results": 2.0}})
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if !strings.HasPrefix(out.Result.Text, "[1] Runway — https://runwayml.com\nGenerative video\n\n[2] Pika") || len(out.Result.Sources) != 2 {
		t.Errorf("observation = %q, sources %+v", out.Result.Text, out.Result.Sources)
	}
	if out := reg.Run(context.Background(), Call{Name: "web_search", Args: map[string]any{}}); !errors.Is(out.Err, ErrInvalidArgs) {
		t.Errorf("missing query: %v", out.Err)
	}
	none, _ := NewRegistry(nil, NewWebSearch(NoProvider{}))
	none, _ = none.WithEnabled("web_search", true)
	if out := none.Run(context.Background(), Call{Name: "web_search", Args: map[string]any{"query": "x"}}); !strings.Contains(out.Result.Text, "set a SearXNG URL") {
		t.Errorf("no provider: %q", out.Result.Text)
	}
}

func TestWebSearchTimeout(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(block)
	p, _ := NewSearXNG(srv.URL, srv.Client())
	tool := NewWebSearch(p)
	tool.Timeout = 30 * time.Millisecond
	reg := mustRegistry(t, tool)
	reg, _ = reg.WithEnabled("web_search", true)
	out := reg.Run(context.Background(), Call{Name: "web_search", Args: map[string]any{"query": "x"}})
	if !errors.Is(out.Err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", out.Err)
	}
}
