package tools

import (
	"strings"

	"golang.org/x/net/html"
)

// HTMLText turns an HTML page into plain text for the model: the text of
// the body, paragraphs and list items on lines of their own, scripts,
// styles and the like left out, at most max bytes of it. A page is
// untrusted data, and the tokenizer never fails on bad HTML.
func HTMLText(page string, max int) string {
	z := html.NewTokenizer(strings.NewReader(page))
	var b strings.Builder
	skip := 0 // depth inside elements whose text is not read
	space := false
	newline := func() {
		s := b.String()
		if len(s) > 0 && !strings.HasSuffix(s, "\n") {
			b.WriteString("\n")
		}
		space = false
	}
	for b.Len() < max {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return strings.TrimSpace(b.String())
		case html.StartTagToken, html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			start := tt == html.StartTagToken
			switch tag {
			case "script", "style", "head", "noscript", "template", "svg", "math":
				if start {
					skip++
				} else if skip > 0 {
					skip--
				}
			case "p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "dd", "dt", "blockquote", "section", "pre":
				newline()
				if start && tag == "li" {
					b.WriteString("- ")
				}
			case "td", "th":
				space = true
			}
		case html.TextToken:
			if skip > 0 {
				continue
			}
			t := z.Text()
			if len(t) > 0 && isSpace(t[0]) {
				space = true
			}
			for i, w := range strings.Fields(string(t)) {
				if (i > 0 || space) && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") && !strings.HasSuffix(b.String(), "- ") {
					b.WriteByte(' ')
				}
				b.WriteString(w)
			}
			space = len(t) > 0 && isSpace(t[len(t)-1])
		}
	}
	s := b.String()
	if len(s) > max {
		s = s[:max]
	}
	return strings.TrimSpace(strings.ToValidUTF8(s, ""))
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
