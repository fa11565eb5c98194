package tools

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// testWiki is the ZIM file backend/zim/testdata/make-wiki.sh made with
// zim-tools: 서울 (and the redirect Seoul), 부산, 김치, "Go (programming
// language)" and "Long article".
var testWiki = filepath.Join("..", "zim", "testdata", "wiki.zim")

func offlineWiki(path string, online bool, api string) Wikipedia {
	return Wikipedia{Config: func() WikipediaConfig { return WikipediaConfig{ZIM: path, Online: online} }, APIURL: api}
}

func TestSearchWikipediaOffline(t *testing.T) {
	zim, err := filepath.Abs(testWiki)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		query      string
		want, not  []string
		sourceName string
	}{
		{query: "서울", want: []string{"[1] 서울 — offline Wikipedia (wiki.zim)", "서울특별시는 대한민국의 수도이다.\n인구는 약 940만 명이며", "면적 605.2 km²"},
			not: []string{"alert", "margin", "<p>"}, sourceName: "서울"},
		{query: "seoul", want: []string{"[1] 서울 (redirected from Seoul)", "수도"}, sourceName: "서울 (redirected from Seoul)"},
		{query: "김", want: []string{"[1] 김치", "발효"}},
		{query: "부산", want: []string{"- 해운대\n- 자갈치 시장"}},
		{query: "go", want: []string{"[1] Go (programming language)", "It has goroutines & channels."}},
		{query: "  long   ARTICLE ", want: []string{"[1] Long article", "Paragraph 1 of", "…"}, not: []string{"Paragraph 200"}},
		{query: "없는 문서", want: []string{`has no article whose title starts with "없는 문서"`}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			res, err := offlineWiki(zim, false, "").Search(context.Background(), c.query, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("%q lacks %q", res.Text, w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(res.Text, n) {
					t.Errorf("%q holds %q", res.Text, n)
				}
			}
			if n := utf8.RuneCountInString(res.Text); n > maxArticleText+300 {
				t.Errorf("%d characters", n)
			}
			if c.sourceName != "" && (len(res.Sources) != 1 || res.Sources[0].Title != c.sourceName || res.Sources[0].Source != "Wikipedia (offline, wiki.zim)") {
				t.Errorf("sources %+v", res.Sources)
			}
		})
	}
}

func TestSearchWikipediaErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.zim")
	os.WriteFile(bad, []byte(strings.Repeat("<html>not a ZIM file</html>", 10)), 0o600)
	cut := filepath.Join(dir, "cut.zim")
	whole, err := os.ReadFile(testWiki)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cut, whole[:len(whole)/3], 0o600) // a download that stopped
	cases := []struct {
		name, zim, query string
		wantErr          string
	}{
		{name: "nothing set up", query: "서울", wantErr: "no Wikipedia is set up"},
		{name: "missing file", zim: filepath.Join(dir, "missing.zim"), query: "서울", wantErr: "missing.zim cannot be read"},
		{name: "not a zim", zim: bad, query: "서울", wantErr: "bad.zim cannot be read (choose another in Settings → Wikipedia): not a ZIM file"},
		{name: "cut download", zim: cut, query: "서울", wantErr: "damaged"},
		{name: "empty query", zim: bad, query: "  ", wantErr: "give a title"},
		{name: "long query", zim: bad, query: strings.Repeat("가", 201), wantErr: "at most 200"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := offlineWiki(c.zim, false, "").Search(context.Background(), c.query, "")
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("error %v, want %q", err, c.wantErr)
			}
		})
	}
}

// fakeMediaWiki answers like the MediaWiki API's generator=search with
// extracts; the tests never reach the network.
func fakeMediaWiki(t *testing.T, status int, body string) (string, *[]string) {
	t.Helper()
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		asked = append(asked, r.URL.Path+" "+q.Get("gsrsearch"))
		if q.Get("generator") != "search" || q.Get("prop") != "extracts|info" || q.Get("explaintext") != "1" || r.Header.Get("User-Agent") == "" {
			t.Errorf("unexpected request %s (User-Agent %q)", r.URL, r.Header.Get("User-Agent"))
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/%s/w/api.php", &asked
}

const seoulPages = `{"batchcomplete":true,"query":{"pages":[
{"pageid":2,"title":"서울 지하철","index":2,"extract":"서울 지하철은 서울의 도시철도이다.","fullurl":"https://ko.wikipedia.org/wiki/서울_지하철"},
{"pageid":1,"title":"서울특별시","index":1,"extract":"서울특별시는 대한민국의 수도이다.","fullurl":"https://ko.wikipedia.org/wiki/서울특별시"}]}}`

func TestSearchWikipediaOnline(t *testing.T) {
	cases := []struct {
		name, query, lang, body string
		status                  int
		want, wantErr, path     string
		source                  string
	}{
		{name: "korean", query: "서울", body: seoulPages, status: 200, path: "/ko/w/api.php 서울", source: "Wikipedia (ko)",
			want: "[1] 서울특별시 — Wikipedia (ko) https://ko.wikipedia.org/wiki/서울특별시\n서울특별시는 대한민국의 수도이다.\n\n[2] 서울 지하철 — Wikipedia (ko)"},
		{name: "english by default", query: "Seoul", body: `{"query":{"pages":[{"title":"Seoul","index":1,"extract":"Seoul is the capital.","fullurl":"https://en.wikipedia.org/wiki/Seoul"}]}}`, status: 200,
			path: "/en/w/api.php Seoul", source: "Wikipedia (en)", want: "[1] Seoul — Wikipedia (en) https://en.wikipedia.org/wiki/Seoul\nSeoul is the capital."},
		{name: "language asked", query: "Seoul", lang: "KO", body: `{"query":{"pages":[]}}`, status: 200, path: "/ko/w/api.php Seoul", want: `Wikipedia (ko) has no article matching "Seoul".`},
		{name: "no results", query: "zzzz", body: `{"batchcomplete":true}`, status: 200, want: `Wikipedia (en) has no article matching "zzzz".`},
		{name: "bad language", query: "Seoul", lang: "../../x", wantErr: "not a Wikipedia language code"},
		{name: "api error", query: "Seoul", body: `{"error":{"code":"x","info":"bad search"}}`, status: 200, wantErr: "Wikipedia: bad search"},
		{name: "server error", query: "Seoul", body: `oops`, status: 503, wantErr: "Wikipedia answered 503"},
		{name: "not json", query: "Seoul", body: `<html>`, status: 200, wantErr: "not what was expected"},
		{name: "too large", query: "Seoul", body: `{"x":"` + strings.Repeat("a", maxWikiBody) + `"}`, status: 200, wantErr: "too large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			api, asked := fakeMediaWiki(t, c.status, c.body)
			res, err := offlineWiki("", true, api).Search(context.Background(), c.query, c.lang)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || !strings.HasPrefix(res.Text, c.want) {
				t.Fatalf("got %q, %v\nwant %q", res.Text, err, c.want)
			}
			if c.source != "" && (len(res.Sources) == 0 || res.Sources[0].Source != c.source || !strings.HasPrefix(res.Sources[0].URL, "https://")) {
				t.Fatalf("sources %+v, want from %q", res.Sources, c.source)
			}
			if c.path != "" && (len(*asked) != 1 || (*asked)[0] != c.path) {
				t.Fatalf("asked %q, want %q", *asked, c.path)
			}
		})
	}
}

// TestSearchWikipediaOfflineFirst: with both on, the file answers what it
// has, and only what it lacks goes online.
func TestSearchWikipediaOfflineFirst(t *testing.T) {
	api, asked := fakeMediaWiki(t, 200, seoulPages)
	w := offlineWiki(testWiki, true, api)
	res, err := w.Search(context.Background(), "김치", "")
	if err != nil || !strings.Contains(res.Text, "offline Wikipedia") || len(*asked) != 0 {
		t.Fatalf("%q, %v, asked %q", res.Text, err, *asked)
	}
	res, err = w.Search(context.Background(), "서울 지하철", "")
	if err != nil || !strings.Contains(res.Text, "Wikipedia (ko) https://") || len(*asked) != 1 {
		t.Fatalf("%q, %v, asked %q", res.Text, err, *asked)
	}
}

func TestSearchWikipediaTool(t *testing.T) {
	tool := NewSearchWikipedia(offlineWiki(testWiki, false, ""))
	if !tool.DefaultOff || !tool.Reaches || !tool.Outside {
		t.Fatal("search_wikipedia reads a file or the network: off by default, approved like web_search")
	}
	res, err := tool.Call(context.Background(), map[string]any{"query": "서울"})
	if err != nil || !strings.Contains(res.Text, "수도") {
		t.Fatalf("%q, %v", res.Text, err)
	}
	unreachable := NewSearchWikipedia(offlineWiki("", true, "http://127.0.0.1:1/%s"))
	if _, err := unreachable.Call(context.Background(), map[string]any{"query": "Seoul"}); err == nil || !strings.Contains(err.Error(), "cannot be reached") {
		t.Fatalf("unreachable server: %v", err)
	}
}

func TestHTMLText(t *testing.T) {
	cases := []struct {
		name, html, want string
		max              int
	}{
		{name: "paragraphs", html: "<p>One <b>two</b>.</p><p>Three</p>", want: "One two.\nThree"},
		{name: "joined inline", html: "<p>Go<i>lang</i> and <a href=x>links</a>!</p>", want: "Golang and links!"},
		{name: "skipped", html: "<head><title>T</title><style>x{}</style></head><script>evil()</script><p>kept</p><noscript>no</noscript>", want: "kept"},
		{name: "lists and tables", html: "<ul><li>a</li><li>b</li></ul><table><tr><td>x</td><td>y</td></tr></table>", want: "- a\n- b\nx y"},
		{name: "entities and korean", html: "<p>김치 &amp; 밥 &lt;3</p>", want: "김치 & 밥 <3"},
		{name: "broken html", html: "<p>open <b>never <i>closed", want: "open never closed"},
		{name: "bounded", html: "<p>" + strings.Repeat("가나다 ", 1000) + "</p>", max: 10, want: "가나다"}, // cut on a character's edge
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			max := c.max
			if max == 0 {
				max = 1000
			}
			if got := HTMLText(c.html, max); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
