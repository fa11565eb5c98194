package tools

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Each built-in tool tells the live trace what it found by a code (Said)
// or the query it found nothing for (NoMatch), so the window says it in
// the person's language where Text, for the model, is English.
func TestResultsSayWhatTheyFound(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("안녕"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"results":[]}`)) }))
	defer empty.Close()
	web, _ := NewSearXNG(empty.URL, empty.Client())
	fixed := time.Date(2026, 11, 21, 1, 5, 9, 0, time.UTC)
	mems := []Memory{{ID: "1", Text: "이름은 민준", Kind: KindFact}, {ID: "2", Text: "무료 도구를 좋아함", Kind: KindPreference}}
	for _, tt := range []struct {
		name    string
		tool    *Tool
		args    map[string]any
		said    api.TraceCode
		saidArg map[string]string
		noMatch string
	}{
		{"memories", NewReadMemory(&fakeMemory{mems: mems}), map[string]any{"query": "이름"}, api.TraceMemoriesFound, map[string]string{"count": "2"}, ""},
		{"no memory", NewReadMemory(&fakeMemory{}), map[string]any{"query": "강아지"}, "", nil, "강아지"},
		{"no web result", NewWebSearch(web), map[string]any{"query": "vrew 가격"}, "", nil, "vrew 가격"},
		{"a file", NewReadFile(func() []api.FolderGrant { return grants(dir) }), map[string]any{"path": "a.txt"}, api.TraceFileRead, map[string]string{"path": filepath.Join(dir, "a.txt")}, ""},
		{"the time", NewGetTime(func() time.Time { return fixed }, "Asia/Seoul"), map[string]any{"lang": "en"}, api.TraceTimeTold, map[string]string{"time": "2026-11-21T10:05:09+09:00", "zone": "Asia/Seoul"}, ""},
		{"the weather", NewGetWeather(fakeOpenMeteo(t, seoulGeo, seoulForecast, 200)), map[string]any{"place": " 서울 "}, api.TraceWeatherTold, map[string]string{"place": "서울"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tt.tool.Call(context.Background(), tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if res.Said.Code != tt.said || res.NoMatch != tt.noMatch || len(res.Said.Args) != len(tt.saidArg) {
				t.Fatalf("said %+v, no match %q; want %s %v, %q", res.Said, res.NoMatch, tt.said, tt.saidArg, tt.noMatch)
			}
			for k, v := range tt.saidArg {
				if res.Said.Args[k] != v {
					t.Errorf("%s = %q, want %q", k, res.Said.Args[k], v)
				}
			}
		})
	}
}

// The trace names a time's zone by its IANA name, or by its offset where
// Go knows it only as the computer's own ("Local") or a bare offset.
func TestZoneName(t *testing.T) {
	seoul, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 21, 1, 5, 9, 0, time.UTC)
	for _, tt := range []struct {
		loc  *time.Location
		want string
	}{
		{seoul, "Asia/Seoul"},
		{time.FixedZone("", 9*3600), "UTC+09:00"},
		{time.FixedZone("Local", -5*3600), "UTC-05:00"},
		{time.UTC, "UTC"},
	} {
		if got := zoneName(at.In(tt.loc)); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.loc, got, tt.want)
		}
	}
}
