package agent

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Sources are what a reply cites (issue 17.3). The model is given numbered
// passages and writes [n] where it uses one; citer rewrites those markers
// while the reply streams, so that the first passage cited becomes [1],
// the next new one [2], and so on. The person watches the final numbers
// being written, the stored reply is the streamed text, and the reply's
// sources are exactly the passages its markers point at, in that order.
// Passages retrieved but never cited stay in the result as Retrieved.

var (
	// markerRe is a complete citation: [3], [1, 4], [2,3、5].
	markerRe = regexp.MustCompile(`^\[(\d{1,3}(?:\s*[,，、]\s*\d{1,3})*)\]`)
	// partialRe is text that may still become a citation when more arrives.
	partialRe = regexp.MustCompile(`^\[(?:\d{1,3}(?:\s*[,，、]\s*(?:\d{1,3})?)*)?$`)
	numberRe  = regexp.MustCompile(`\d{1,3}`)
)

// maxMarker bounds what the citer holds back waiting for a "]".
const maxMarker = 48

// citer rewrites citation markers in streamed text. Markers inside code
// (`inline` or fenced) are left alone, as the UI leaves them; a marker
// naming no offered passage is dropped with the space before it; a list
// ([1, 3]) becomes one marker per passage ([1][2]), which is what the UI
// turns into buttons.
type citer struct {
	offered int          // markers 1..offered are citations
	out     func(string) // receives the rewritten text as it is ready; nil: nobody
	dense   map[int]int  // offered number -> number in the reply
	order   []int        // offered numbers, in the order first cited
	pending string       // held back: it may be the start of a marker
	text    strings.Builder

	fence  bool // inside a ``` block
	inline int  // inside `code`: the length of the opening backtick run
}

func newCiter(offered int, out func(string)) *citer {
	return &citer{offered: offered, out: out, dense: map[int]int{}}
}

// Write takes the next piece of the reply.
func (c *citer) Write(s string) {
	c.pending += s
	c.scan(false)
}

// Close releases what was held back; call it when the reply is complete.
func (c *citer) Close() { c.scan(true) }

// Text is the rewritten reply so far.
func (c *citer) Text() string { return c.text.String() }

// Cited lists the passages cited, as offered numbers (1-based), in the
// order of their new numbers.
func (c *citer) Cited() []int { return c.order }

func (c *citer) emit(s string) {
	if s == "" {
		return
	}
	c.text.WriteString(s)
	if c.out != nil {
		c.out(s)
	}
}

// scan emits as much of pending as is certain; with final, all of it.
func (c *citer) scan(final bool) {
	p := c.pending
	var done strings.Builder
	i := 0
	for i < len(p) {
		ch := p[i]
		switch {
		case ch == '`':
			n := 1
			for i+n < len(p) && p[i+n] == '`' {
				n++
			}
			if i+n == len(p) && !final {
				goto hold // the run may go on
			}
			c.backticks(n)
			done.WriteString(p[i : i+n])
			i += n
			continue
		case c.fence || c.inline > 0:
		case ch == ' ' && i+1 < len(p) && p[i+1] == '[':
			if w, n, ok := c.marker(p[i+1:], final); ok {
				if w != "" {
					done.WriteString(" " + w)
				}
				i += 1 + n
				continue
			} else if n < 0 {
				goto hold
			}
		case ch == ' ' && i+1 == len(p) && !final:
			goto hold // a marker may follow
		case ch == '[':
			if w, n, ok := c.marker(p[i:], final); ok {
				done.WriteString(w)
				i += n
				continue
			} else if n < 0 {
				goto hold
			}
		}
		_, size := utf8.DecodeRuneInString(p[i:])
		done.WriteString(p[i : i+size])
		i += size
	}
hold:
	c.pending = p[i:]
	c.emit(done.String())
}

// backticks follows code spans and fences through a run of n backticks.
func (c *citer) backticks(n int) {
	switch {
	case c.fence:
		if n >= 3 {
			c.fence = false
		}
	case c.inline > 0:
		if n == c.inline {
			c.inline = 0
		}
	case n >= 3:
		c.fence = true
	default:
		c.inline = n
	}
}

// marker reads a citation at the start of s. ok: it was one, n bytes long,
// written as w ("" when it named no offered passage). n < 0: s may still
// become one.
func (c *citer) marker(s string, final bool) (w string, n int, ok bool) {
	m := markerRe.FindStringSubmatch(s)
	if m == nil {
		if !final && len(s) < maxMarker && partialRe.MatchString(s) {
			return "", -1, false
		}
		return "", 0, false
	}
	var b strings.Builder
	seen := map[int]bool{}
	for _, d := range numberRe.FindAllString(m[1], -1) {
		k, _ := strconv.Atoi(d)
		if k < 1 || k > c.offered || seen[k] {
			continue
		}
		seen[k] = true
		if c.dense[k] == 0 {
			c.order = append(c.order, k)
			c.dense[k] = len(c.order)
		}
		fmt.Fprintf(&b, "[%d]", c.dense[k])
	}
	return b.String(), len(m[0]), true
}

// cite rewrites a whole text at once: what the citer does to a stream.
func cite(text string, offered int) (string, []int) {
	c := newCiter(offered, nil)
	c.Write(text)
	c.Close()
	return c.Text(), c.Cited()
}

// pick returns the sources at the given 1-based numbers, in that order.
func pick(srcs []api.Source, nums []int) []api.Source {
	out := make([]api.Source, 0, len(nums))
	for _, n := range nums {
		if n >= 1 && n <= len(srcs) {
			out = append(out, srcs[n-1])
		}
	}
	return out
}

// without returns srcs minus those in drop (by sourceKey), in order.
func without(srcs, drop []api.Source) []api.Source {
	gone := make(map[string]bool, len(drop))
	for _, s := range drop {
		gone[sourceKey(s)] = true
	}
	var out []api.Source
	for _, s := range srcs {
		if !gone[sourceKey(s)] {
			gone[sourceKey(s)] = true
			out = append(out, s)
		}
	}
	return out
}

// aboutTool returns the passages about a recommended tool, best evidence
// first: its catalog entry or a page with its name as the title or at its
// address, then passages of documents and web pages that name it (a
// catalog entry is about the tool in its title only: Rytr's, which
// compares itself to ChatGPT, is not about ChatGPT). A card's citation
// chips show these and nothing else, so the ChatGPT card never points at
// Rytr.
func aboutTool(tool, link string, srcs []api.Source) []api.Source {
	name := strings.ToLower(strings.TrimSpace(tool))
	if utf8.RuneCountInString(name) < 2 {
		return []api.Source{}
	}
	host := hostOf(link)
	var strong, weak []api.Source
	for _, s := range srcs {
		title := strings.ToLower(strings.TrimSpace(s.Title))
		switch {
		case title != "" && (title == name || hasWord(title, name) || (utf8.RuneCountInString(title) >= 3 && hasWord(name, title))):
			strong = append(strong, s)
		case host != "" && hostOf(s.URL) == host:
			strong = append(strong, s)
		case !isCatalog(s.Source) && hasWord(strings.ToLower(s.Snippet), name):
			weak = append(weak, s)
		}
	}
	return append(append([]api.Source{}, strong...), weak...)
}

// hasWord reports whether text contains word not glued to other Latin
// letters or digits ("Vrew로" names Vrew; "Canvas" does not name Canva).
func hasWord(text, word string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], word)
		if i < 0 {
			return false
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+len(word):])
		if !latinOrDigit(before) && !latinOrDigit(after) {
			return true
		}
		from = i + 1
	}
}

func latinOrDigit(r rune) bool {
	return r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func hostOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// numbering gives every passage of a turn one number, in the order the
// model first saw it: what the sources field's reducer keeps, so that
// s.Sources[n-1] is passage [n] and a passage found twice keeps its number.
type numbering struct {
	of   map[string]int
	next int
}

func newNumbering(seen []api.Source) *numbering {
	n := &numbering{of: make(map[string]int, len(seen)), next: len(seen)}
	for i, s := range seen {
		n.of[sourceKey(s)] = i + 1
	}
	return n
}

// passages is the observation of a tool's passages, numbered.
func (n *numbering) passages(srcs []api.Source) string {
	var b strings.Builder
	for i, s := range srcs {
		k, ok := n.of[sourceKey(s)]
		if !ok {
			n.next++
			k = n.next
			n.of[sourceKey(s)] = k
		}
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "[%d] %s\n%s", k, sourceLabel(s), strings.TrimSpace(s.Snippet))
	}
	return b.String()
}
