package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// WebResult is one web search hit.
type WebResult struct {
	Title   string
	URL     string
	Snippet string
}

// SearchProvider runs web searches. Wayfinder ships a SearXNG provider
// because SearXNG can be self-hosted and needs no API key.
type SearchProvider interface {
	Search(ctx context.Context, query string, n int) ([]WebResult, error)
}

// WebSearchName is web_search's name: the agent keeps untrusted text out
// of its queries.
const WebSearchName = "web_search"

// NewWebSearch is the web_search tool. It is off by default: Wayfinder is
// offline-first, and the registry lists it only once the person enables web
// search in the settings.
func NewWebSearch(p SearchProvider) *Tool {
	return &Tool{
		Name:        WebSearchName,
		Description: "Search the web for recent information (new tools, current prices). Returns numbered results to cite.",
		Params: []Param{
			{Name: "query", Type: TypeString, Required: true, Description: "search terms"},
			{Name: "max_results", Type: TypeInteger, Min: bound(1), Max: bound(10), Description: "how many results, 1-10 (default 5)"},
		},
		Timeout:    20 * time.Second,
		DefaultOff: true,
		Outside:    true,
		Reaches:    true,
		Run: func(ctx context.Context, args Args) (Result, error) {
			query := args.String("query")
			results, err := p.Search(ctx, query, args.Int("max_results", 5))
			if err != nil {
				return Result{}, fmt.Errorf("web search %q: %w", query, err)
			}
			if len(results) == 0 {
				return Result{Text: fmt.Sprintf("The web search for %q found nothing.", query), NoMatch: query}, nil
			}
			var b strings.Builder
			sources := make([]api.Source, 0, len(results))
			for i, r := range results {
				if i > 0 {
					b.WriteString("\n\n")
				}
				fmt.Fprintf(&b, "[%d] %s — %s\n%s", i+1, r.Title, r.URL, cut(r.Snippet, 500))
				sources = append(sources, api.Source{ID: r.URL, Title: r.Title, Source: "web", URL: r.URL, Snippet: cut(r.Snippet, 500)})
			}
			return Result{Text: b.String(), Sources: sources}, nil
		},
	}
}

// maxSearchBody bounds how much of a search response is read.
const maxSearchBody = 2 << 20

// SearXNG queries a SearXNG instance's JSON API.
type SearXNG struct {
	base   *url.URL
	client *http.Client
}

// NewSearXNG makes a provider for the instance at baseURL (for example
// http://127.0.0.1:8888). client is injected so that tests and the app's
// network policy decide where requests may go.
func NewSearXNG(baseURL string, client *http.Client) (*SearXNG, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("searxng url %q: must be an http(s) URL like http://127.0.0.1:8888", baseURL)
	}
	if client == nil {
		client = &http.Client{Timeout: 20 * time.Second}
	}
	u.RawQuery, u.Fragment = "", ""
	return &SearXNG{base: u, client: client}, nil
}

// Search implements SearchProvider.
func (s *SearXNG) Search(ctx context.Context, query string, n int) ([]WebResult, error) {
	u := s.base.JoinPath("search")
	u.RawQuery = url.Values{"q": {query}, "format": {"json"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("searxng request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("searxng %s: %w", s.base.Host, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		hint := ""
		if resp.StatusCode == http.StatusForbidden {
			hint = " (the instance must allow the json format: search.formats in settings.yml)"
		}
		return nil, fmt.Errorf("searxng %s: HTTP %d%s", s.base.Host, resp.StatusCode, hint)
	}
	var body struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxSearchBody)).Decode(&body); err != nil {
		return nil, fmt.Errorf("searxng %s: decode response: %w", s.base.Host, err)
	}
	var out []WebResult
	for _, r := range body.Results {
		if len(out) == n {
			break
		}
		if !safeLink(r.URL) {
			continue // javascript: and other schemes never reach a citation link
		}
		out = append(out, WebResult{Title: strings.TrimSpace(r.Title), URL: r.URL, Snippet: strings.TrimSpace(r.Content)})
	}
	return out, nil
}

func safeLink(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// errNoProvider is returned when web search is enabled without a provider.
var errNoProvider = errors.New("no web search provider configured")

// NoProvider is a SearchProvider that always fails with a clear message;
// use it when web search is enabled but no URL is set.
type NoProvider struct{}

// Search implements SearchProvider.
func (NoProvider) Search(context.Context, string, int) ([]WebResult, error) {
	return nil, fmt.Errorf("%w: set a SearXNG URL in the settings", errNoProvider)
}
