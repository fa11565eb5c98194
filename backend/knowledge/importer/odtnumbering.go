package importer

import (
	"encoding/xml"
	"strconv"
	"strings"
)

// OpenDocument numbers list items itself, as Word does: a text:list names
// a list style whose levels say how ("1", "a", "가", "①", with a prefix, a
// suffix and how many levels are shown, "1.2."). The automatic list styles
// come in content.xml before the body, so they are read as the body's own
// decoder meets them; the item's number goes before its first paragraph.

const (
	odtLevels     = 10
	maxListStyles = 10_000
)

type odtLevel struct {
	format, prefix, suffix string
	start, display         int
	bullet                 bool
}

// odtCount is where each level of a list (with the lists nested in it) has
// got to.
type odtCount struct {
	n       [odtLevels]int
	started [odtLevels]bool
}

// odtNumbering counts an OpenDocument text's list items as it is read.
type odtNumbering struct {
	styles   map[string]*[odtLevels]odtLevel
	defining *[odtLevels]odtLevel // the list style being read
	// open are the styles of the lists open around the text (innermost
	// last); count is the outermost one's, which nested lists count with;
	// last keeps it by style for a list that continues the one before.
	open    []string
	count   *odtCount
	last    map[string]*odtCount
	pending string // the label of the list item whose first paragraph comes next
}

func newODTNumbering() numberer {
	return &odtNumbering{styles: map[string]*[odtLevels]odtLevel{}, last: map[string]*odtCount{}}
}

func (o *odtNumbering) see(e xml.StartElement) {
	switch qname(e.Name) {
	case "text:list-style":
		o.defining = nil
		if len(o.styles) < maxListStyles {
			o.defining = &[odtLevels]odtLevel{}
			o.styles[attr(e, "name")] = o.defining
		}
	case "text:list-level-style-number", "text:list-level-style-bullet", "text:list-level-style-image":
		i := atoiOr(attr(e, "level"), 0) - 1
		if o.defining == nil || i < 0 || i >= odtLevels {
			return
		}
		o.defining[i] = odtLevel{
			format: attr(e, "num-format"), prefix: cutLabel(attr(e, "num-prefix")), suffix: cutLabel(attr(e, "num-suffix")),
			start: atoiOr(attr(e, "start-value"), 1), display: atoiOr(attr(e, "display-levels"), 1),
			bullet: qname(e.Name) != "text:list-level-style-number",
		}
	case "text:list":
		style := attr(e, "style-name")
		if len(o.open) == 0 {
			if c := o.last[style]; c != nil && attr(e, "continue-numbering") == "true" {
				o.count = c
			} else {
				o.count = &odtCount{}
				if len(o.last) < maxListStyles {
					o.last[style] = o.count
				}
			}
		}
		if style == "" && len(o.open) > 0 {
			style = o.open[len(o.open)-1] // a nested list numbers as its parent says
		}
		o.open = append(o.open, style)
	case "text:list-item":
		o.pending = o.item(atoiOr(attr(e, "start-value"), -1))
	case "text:list-header":
		o.pending = ""
	}
}

// item counts a list item at the depth of the lists open and says its
// number; start, when not -1, is where the item sets its level's count.
func (o *odtNumbering) item(start int) string {
	depth := len(o.open)
	if depth == 0 || depth > odtLevels || o.count == nil {
		return ""
	}
	i := depth - 1
	levels := o.styles[o.open[i]]
	if levels == nil {
		return ""
	}
	c := o.count
	switch {
	case start >= 0:
		c.n[i] = start
	case c.started[i]:
		c.n[i]++
	default:
		c.n[i] = levels[i].start
	}
	c.started[i] = true
	for j := i + 1; j < odtLevels; j++ { // an item restarts the levels under it
		c.started[j] = false
	}
	l := levels[i]
	if l.bullet {
		return ""
	}
	var nums []string
	for j := max(0, i-min(l.display, odtLevels)+1); j <= i; j++ {
		if s := odtFormat(c.n[j], levels[j].format); s != "" {
			nums = append(nums, s)
		}
	}
	return strings.TrimSpace(l.prefix + strings.Join(nums, ".") + l.suffix)
}

func (o *odtNumbering) end(name string) {
	switch name {
	case "text:list-style":
		o.defining = nil
	case "text:list":
		if len(o.open) > 0 {
			o.open = o.open[:len(o.open)-1]
		}
	}
}

func (o *odtNumbering) paragraph(xml.StartElement) {}

func (o *odtNumbering) label() string {
	l := o.pending
	o.pending = ""
	return l
}

// odtFormat writes n as a style:num-format says: "1", "a", "A", "i", "I",
// or LibreOffice's "가, 나, 다", "ㄱ, ㄴ, ㄷ", "①, ②, ③", "일, 이, 삼";
// "" writes no number.
func odtFormat(n int, format string) string {
	switch {
	case format == "":
		return ""
	case format == "a":
		return formatNumber(n, "lowerLetter")
	case format == "A":
		return formatNumber(n, "upperLetter")
	case format == "i":
		return formatNumber(n, "lowerRoman")
	case format == "I":
		return formatNumber(n, "upperRoman")
	case strings.HasPrefix(format, "가"):
		return formatNumber(n, "ganada")
	case strings.HasPrefix(format, "ㄱ"):
		return formatNumber(n, "chosung")
	case strings.HasPrefix(format, "①"):
		return formatNumber(n, "decimalEnclosedCircle")
	case strings.HasPrefix(format, "일"):
		return formatNumber(n, "koreanDigital")
	}
	return strconv.Itoa(n)
}
