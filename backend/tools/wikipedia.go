package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/zim"
)

// WikipediaName is search_wikipedia's name.
const WikipediaName = "search_wikipedia"

// WikipediaConfig is what the person chose in Settings: a Kiwix ZIM file
// to search offline, and whether the MediaWiki API may be asked online.
type WikipediaConfig struct {
	ZIM    string // absolute path; "" for none
	Online bool
}

// Wikipedia answers search_wikipedia from a ZIM file on this computer and,
// when the person allowed it, from Wikipedia's MediaWiki API.
type Wikipedia struct {
	// Config is read at every call, so a change in Settings applies at once.
	Config func() WikipediaConfig
	Client *http.Client
	// APIURL is the MediaWiki API with "%s" for the language, default
	// https://%s.wikipedia.org/w/api.php; tests use an httptest server.
	APIURL    string
	UserAgent string
}

// Bounds of one answer.
const (
	maxArticleHTML  = 2 << 20 // of an article's HTML read from the ZIM file
	maxArticleText  = 4000    // characters of article text the model reads
	maxWikiBody     = 2 << 20 // of a MediaWiki API answer
	wikiOtherTitles = 5
	maxWikiQuery    = 200
)

var wikiLang = regexp.MustCompile(`^[a-z]{2,3}(-[a-z]{2,8})?$`)

// NewSearchWikipedia is the search_wikipedia tool. It reads a file the
// person chose, or goes to the network, so it is off until the person
// turns it on in Settings and is approved like web_search.
func NewSearchWikipedia(w Wikipedia) *Tool {
	return &Tool{
		Name:        WikipediaName,
		Description: "Look a topic up in Wikipedia (an offline copy, or online if allowed): returns the best matching article's text and other matching titles.",
		Params: []Param{
			{Name: "query", Type: TypeString, Required: true, Description: "an article title or the start of one, e.g. \"Seoul\" or \"서울\""},
			{Name: "language", Type: TypeString, Description: "Wikipedia language for online search, e.g. en or ko (default: from the query's script)"},
		},
		Timeout:    20 * time.Second,
		DefaultOff: true,
		Outside:    true,
		Reaches:    true,
		Run: func(ctx context.Context, args Args) (Result, error) {
			return w.Search(ctx, args.String("query"), args.String("language"))
		},
	}
}

// Search looks query up: first in the ZIM file, then (when allowed and the
// file had nothing, or there is none) online.
func (w Wikipedia) Search(ctx context.Context, query, lang string) (Result, error) {
	query = strings.Join(strings.Fields(query), " ")
	if query == "" || utf8.RuneCountInString(query) > maxWikiQuery {
		return Result{}, fmt.Errorf("give a title or topic of at most %d characters", maxWikiQuery)
	}
	var cfg WikipediaConfig
	if w.Config != nil {
		cfg = w.Config()
	}
	if cfg.ZIM == "" && !cfg.Online {
		return Result{}, errors.New("no Wikipedia is set up: choose a ZIM file or allow online search in Settings → Wikipedia")
	}
	if cfg.ZIM != "" {
		res, found, err := w.offline(ctx, cfg.ZIM, query)
		if err != nil || found || !cfg.Online {
			return res, err
		}
	}
	return w.online(ctx, query, lang)
}

// offline searches the ZIM file's titles for query (as written, then with
// capitals), and returns the best article's text.
func (w Wikipedia) offline(ctx context.Context, path, query string) (Result, bool, error) {
	a, err := zim.Open(path)
	if err != nil {
		return Result{}, false, fmt.Errorf("the Wikipedia file %s cannot be read (choose another in Settings → Wikipedia): %w", filepath.Base(path), err)
	}
	defer a.Close()
	ns := a.ContentNamespace()
	var hits []zim.Entry
	seen := map[uint32]bool{}
	for _, q := range titleVariants(query) {
		es, err := a.Titles(ctx, ns, q, wikiOtherTitles+1)
		if err != nil {
			return Result{}, false, fmt.Errorf("searching %s: %w", filepath.Base(path), err)
		}
		for _, e := range es {
			if !seen[e.Index] {
				seen[e.Index] = true
				hits = append(hits, e)
			}
		}
	}
	name := filepath.Base(path)
	if len(hits) == 0 {
		return Result{Text: fmt.Sprintf("The offline Wikipedia (%s) has no article whose title starts with %q. Try a shorter or differently written title.", name, query), NoMatch: query}, false, nil
	}
	// The best hit: a title equal to the query (any case), else the
	// shortest title, which is the closest to a prefix.
	best := 0
	for i, e := range hits {
		if strings.EqualFold(e.Title, query) {
			best = i
			break
		}
		if utf8.RuneCountInString(e.Title) < utf8.RuneCountInString(hits[best].Title) {
			best = i
		}
	}
	html, _, err := a.Content(hits[best], maxArticleHTML)
	if err != nil {
		return Result{}, false, fmt.Errorf("reading %q from %s: %w", hits[best].Title, name, err)
	}
	title := hits[best].Title
	if target, err := a.Resolve(hits[best]); err == nil && target.Title != title {
		title = fmt.Sprintf("%s (redirected from %s)", target.Title, title)
	}
	text := cut(HTMLText(string(html), maxArticleText*2), maxArticleText)
	var b strings.Builder
	fmt.Fprintf(&b, "[1] %s — offline Wikipedia (%s)\n%s", title, name, text)
	if others := otherTitles(hits, best); others != "" {
		fmt.Fprintf(&b, "\n\nOther titles: %s", others)
	}
	src := api.Source{ID: "zim:" + name + ":" + hits[best].Path, Title: title, Source: "Wikipedia (offline, " + name + ")", Snippet: cut(text, 500)}
	return Result{Text: b.String(), Sources: []api.Source{src}}, true, nil
}

func otherTitles(hits []zim.Entry, best int) string {
	var ts []string
	for i, e := range hits {
		if i != best && len(ts) < wikiOtherTitles {
			ts = append(ts, e.Title)
		}
	}
	return strings.Join(ts, ", ")
}

// titleVariants are the spellings tried against the case-sensitive title
// index: as written, first letter capital ("seoul" → "Seoul"), in
// Wikipedia's sentence case ("long ARTICLE" → "Long article"), each word
// capitalised ("new york" → "New York").
func titleVariants(q string) []string {
	out := []string{q}
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	r, n := utf8.DecodeRuneInString(q)
	add(string(unicode.ToUpper(r)) + q[n:])
	add(string(unicode.ToUpper(r)) + strings.ToLower(q[n:]))
	words := strings.Fields(q)
	for i, wd := range words {
		r, n := utf8.DecodeRuneInString(wd)
		words[i] = string(unicode.ToUpper(r)) + strings.ToLower(wd[n:])
	}
	add(strings.Join(words, " "))
	return out
}

// online asks the MediaWiki API for the best matches and their intros.
func (w Wikipedia) online(ctx context.Context, query, lang string) (Result, error) {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if lang == "" {
		lang = scriptLanguage(query)
	}
	if !wikiLang.MatchString(lang) {
		return Result{}, fmt.Errorf("%q is not a Wikipedia language code like en or ko", lang)
	}
	base := orDefault(w.APIURL, "https://%s.wikipedia.org/w/api.php")
	q := url.Values{
		"action": {"query"}, "format": {"json"}, "formatversion": {"2"},
		"generator": {"search"}, "gsrsearch": {query}, "gsrlimit": {"3"},
		"prop": {"extracts|info"}, "inprop": {"url"},
		"exintro": {"1"}, "explaintext": {"1"}, "exlimit": {"3"}, "redirects": {"1"},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf(base, lang)+"?"+q.Encode(), nil)
	if err != nil {
		return Result{}, fmt.Errorf("wikipedia request: %w", err)
	}
	req.Header.Set("User-Agent", orDefault(w.UserAgent, "Wayfinder (search_wikipedia)"))
	client := w.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return Result{}, fmt.Errorf("Wikipedia cannot be reached (is this computer online?): %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxWikiBody+1))
	if err != nil {
		return Result{}, fmt.Errorf("reading Wikipedia's answer: %w", err)
	}
	if len(body) > maxWikiBody {
		return Result{}, errors.New("Wikipedia's answer is too large")
	}
	if resp.StatusCode != http.StatusOK {
		return Result{}, fmt.Errorf("Wikipedia answered %s", resp.Status)
	}
	var ans struct {
		Error *struct {
			Info string `json:"info"`
		} `json:"error"`
		Query struct {
			Pages []wikiPage `json:"pages"`
		} `json:"query"`
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		return Result{}, fmt.Errorf("Wikipedia's answer is not what was expected: %w", err)
	}
	if ans.Error != nil {
		return Result{}, fmt.Errorf("Wikipedia: %s", cut(ans.Error.Info, 200))
	}
	pages := ans.Query.Pages
	if len(pages) == 0 {
		return Result{Text: fmt.Sprintf("Wikipedia (%s) has no article matching %q.", lang, query), NoMatch: query}, nil
	}
	// formatversion 2 lists pages in no set order; index is the rank.
	slices.SortFunc(pages, func(a, b wikiPage) int { return cmp.Compare(a.Index, b.Index) })
	var b strings.Builder
	var sources []api.Source
	budget := maxArticleText
	for i, p := range pages {
		if i > 0 {
			b.WriteString("\n\n")
		}
		text := cut(strings.TrimSpace(p.Extract), max(budget, 300))
		budget -= utf8.RuneCountInString(text)
		u := ""
		if pu, err := url.Parse(p.URL); err == nil && pu.Scheme == "https" {
			u = p.URL
		}
		fmt.Fprintf(&b, "[%d] %s — Wikipedia (%s) %s\n%s", i+1, cut(p.Title, 200), lang, u, text)
		sources = append(sources, api.Source{ID: orDefault(u, "wikipedia:"+lang+":"+p.Title), Title: cut(p.Title, 200), Source: "Wikipedia (" + lang + ")", URL: u, Snippet: cut(text, 500)})
	}
	return Result{Text: b.String(), Sources: sources}, nil
}

// wikiPage is one page of the MediaWiki API's answer.
type wikiPage struct {
	Index   int    `json:"index"`
	Title   string `json:"title"`
	Extract string `json:"extract"`
	URL     string `json:"fullurl"`
}

// scriptLanguage guesses the Wikipedia to ask from the query's letters.
func scriptLanguage(q string) string {
	for _, r := range q {
		switch {
		case unicode.Is(unicode.Hangul, r):
			return "ko"
		case unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r):
			return "ja"
		case unicode.Is(unicode.Han, r):
			return "zh"
		}
	}
	return "en"
}
