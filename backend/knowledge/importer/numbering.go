package importer

import (
	"archive/zip"
	"encoding/xml"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Word numbers paragraphs itself ("제1조", "1.", "가.", "①"): the numbers
// are not in the text but in word/numbering.xml, counted as the document
// is read. A regulation or a contract without them loses what people
// search for and cite ("제3조", "2항"), so they are counted here the way
// Word counts them and put before the paragraph's text.

// Bounds on what numbering.xml may declare; past them the rest is left
// unnumbered, the text is still read.
const (
	maxNumberings   = 10_000
	maxNumberLabel  = 64 // runes of one level's pattern
	numberingLevels = 9
)

// listLevel is one level of a list: how its number is written.
type listLevel struct {
	format string // w:numFmt: decimal, ganada, upperRoman, bullet, …
	text   string // w:lvlText: "제%1조", "%1.%2."; %N is level N's number
	start  int
	legal  bool // w:isLgl: the levels it shows are written as decimals
	style  string
}

// listCount is where each level of a list has got to.
type listCount struct {
	n       [numberingLevels]int
	started [numberingLevels]bool
}

type abstractList struct {
	levels [numberingLevels]listLevel
	count  listCount
}

// listInstance is a w:num: an abstract list, with its own counts when it
// restarts a level (w:startOverride), else counting on with every other
// instance of the same list, as Word does.
type listInstance struct {
	list  *abstractList
	start map[int]int
	own   *listCount
}

// numberer gives paragraphs the numbers the program writes itself, as the
// body is read: paragraph starts one (e, whose attributes may name its
// shape), see and end are told of the other elements (properties,
// lists), label counts the paragraph and says its number ("" for none).
type numberer interface {
	paragraph(e xml.StartElement)
	see(e xml.StartElement)
	end(name string)
	label() string
}

// noNumbers is the numberer of a format that has none.
type noNumbers struct{}

func (noNumbers) paragraph(xml.StartElement) {}
func (noNumbers) see(xml.StartElement)       {}
func (noNumbers) end(string)                 {}
func (noNumbers) label() string              { return "" }

// wordNumbering counts a Word document's numbered paragraphs as they are
// read. Its methods do nothing on nil: a file without numbering.xml.
type wordNumbering struct {
	nums map[string]*listInstance
	// styles gives a paragraph style's list (numId, level), for
	// headings and articles numbered through their style.
	styles map[string]numRef
	// at is the numbering of the paragraph being read.
	at numRef
}

type numRef struct {
	num   string
	level int
	style string
	set   bool // the paragraph set numId itself (0 turns it off)
}

// readWordNumbering reads word/numbering.xml and the styles' numbering
// of z, within budget. A file without numbering.xml gives nil; a damaged
// one gives what could be read before the damage.
func readWordNumbering(z *zip.Reader, budget *xmlBudget) (*wordNumbering, error) {
	d, closer, err := openPart(z, "word/numbering.xml", budget)
	if err != nil {
		return nil, nil //nolint:nilerr // no numbering: nothing is numbered
	}
	defer closer.Close()
	w := &wordNumbering{nums: map[string]*listInstance{}, styles: map[string]numRef{}}
	abstracts := map[string]*abstractList{}
	var (
		abs      *abstractList
		lvl      = -1
		inst     *listInstance
		override = -1
	)
	err = budget.judged(eachStart(d, func(e xml.StartElement) {
		val := attr(e, "val")
		switch qname(e.Name) {
		case "w:abstractNum":
			abs, inst, lvl = nil, nil, -1
			if len(abstracts) < maxNumberings {
				abs = &abstractList{}
				abstracts[attr(e, "abstractNumId")] = abs
			}
		case "w:num":
			abs, inst, lvl = nil, nil, -1
			if len(w.nums) < maxNumberings {
				inst = &listInstance{}
				w.nums[attr(e, "numId")] = inst
			}
		case "w:abstractNumId":
			if inst != nil {
				inst.list = abstracts[val] // abstract lists come first in the file
			}
		case "w:lvlOverride":
			override = levelIndex(attr(e, "ilvl"))
		case "w:startOverride":
			if inst != nil && override >= 0 {
				if inst.start == nil {
					inst.start = map[int]int{}
				}
				inst.start[override] = atoiOr(val, 1)
			}
		case "w:lvl":
			lvl = -1
			if abs != nil {
				lvl = levelIndex(attr(e, "ilvl"))
				if lvl >= 0 {
					abs.levels[lvl] = listLevel{format: "decimal", start: 1}
				}
			}
		}
		if abs == nil || lvl < 0 {
			return
		}
		l := &abs.levels[lvl]
		switch qname(e.Name) {
		case "w:start":
			l.start = atoiOr(val, 1)
		case "w:numFmt":
			l.format = val
		case "w:lvlText":
			l.text = cutLabel(val)
		case "w:isLgl":
			l.legal = val == "" || val == "1" || val == "true" || val == "on"
		case "w:pStyle":
			l.style = val
		}
	}))
	for _, inst := range w.nums {
		if inst.start != nil {
			inst.own = &listCount{}
		}
	}
	if err != nil {
		return w, err
	}
	return w, w.readStyles(z, budget)
}

// readStyles reads which list each paragraph style numbers its paragraphs
// with (w:style/w:pPr/w:numPr). A style that names no level takes the one
// whose w:pStyle is the style, else the first.
func (w *wordNumbering) readStyles(z *zip.Reader, budget *xmlBudget) error {
	d, closer, err := openPart(z, "word/styles.xml", budget)
	if err != nil {
		return nil //nolint:nilerr // no styles: none numbers its paragraphs
	}
	defer closer.Close()
	id := ""
	nums, levels := map[string]string{}, map[string]int{}
	err = budget.judged(eachStart(d, func(e xml.StartElement) {
		switch qname(e.Name) {
		case "w:style":
			id = attr(e, "styleId")
		case "w:numId":
			if id != "" && len(nums) < maxNumberings {
				nums[id] = attr(e, "val")
			}
		case "w:ilvl":
			if id != "" && len(levels) < maxNumberings {
				levels[id] = max(levelIndex(attr(e, "val")), 0)
			}
		}
	}))
	for id, num := range nums {
		level, ok := levels[id]
		if !ok {
			level = -1
		}
		w.styles[id] = numRef{num: num, level: level}
	}
	return err
}

// paragraph starts a paragraph: it has no number until its properties
// give it one.
func (w *wordNumbering) paragraph(xml.StartElement) {
	if w != nil {
		w.at = numRef{}
	}
}

func (w *wordNumbering) end(string) {}

// see notes what a paragraph property says of the paragraph's number.
func (w *wordNumbering) see(e xml.StartElement) {
	if w == nil {
		return
	}
	switch qname(e.Name) {
	case "w:pStyle":
		w.at.style = attr(e, "val")
	case "w:numId":
		w.at.num, w.at.set = attr(e, "val"), true
	case "w:ilvl":
		w.at.level = max(levelIndex(attr(e, "val")), 0)
	}
}

// label counts the paragraph being read, if it is numbered, and says its
// number as Word shows it ("제3조", "2.1.", "나."); "" for one that is not
// numbered or is a bullet.
func (w *wordNumbering) label() string {
	if w == nil {
		return ""
	}
	ref := w.at
	w.at = numRef{}
	if !ref.set {
		s, ok := w.styles[ref.style]
		if !ok {
			return ""
		}
		ref.num, ref.level = s.num, s.level
	}
	inst := w.nums[ref.num]
	if inst == nil || inst.list == nil { // numId 0 (numbering off), or unknown
		return ""
	}
	list := inst.list
	if ref.level < 0 {
		ref.level = 0
		for i, l := range list.levels {
			if l.style != "" && l.style == ref.style {
				ref.level = i
				break
			}
		}
	}
	count := &list.count
	if inst.own != nil {
		count = inst.own
	}
	startOf := func(i int) int {
		if s, ok := inst.start[i]; ok {
			return s
		}
		return list.levels[i].start
	}
	lvl := ref.level
	if count.started[lvl] {
		count.n[lvl]++
	} else {
		count.n[lvl], count.started[lvl] = startOf(lvl), true
	}
	for i := lvl + 1; i < numberingLevels; i++ { // a new item restarts the levels under it
		count.started[i] = false
	}
	l := list.levels[lvl]
	if l.format == "bullet" || l.format == "none" || l.text == "" {
		return ""
	}
	var b strings.Builder
	for rest := l.text; rest != ""; {
		i := strings.IndexByte(rest, '%')
		if i < 0 || i+1 >= len(rest) || rest[i+1] < '1' || rest[i+1] > '9' {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		n := int(rest[i+1] - '1')
		v := count.n[n]
		if !count.started[n] {
			v = startOf(n)
		}
		format := list.levels[n].format
		if l.legal {
			format = "decimal"
		}
		b.WriteString(formatNumber(v, format))
		rest = rest[i+2:]
	}
	return strings.TrimSpace(b.String())
}

// levelIndex is a list level 0–8 from its attribute, or -1.
func levelIndex(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n >= numberingLevels {
		return -1
	}
	return n
}

func atoiOr(s string, or int) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 1_000_000 {
		return or
	}
	return n
}

// formatNumber writes n the way the list format w:numFmt says, for the
// formats Korean and English documents use; others as decimals.
func formatNumber(n int, format string) string {
	switch format {
	case "decimalZero":
		if n < 10 {
			return "0" + strconv.Itoa(n)
		}
	case "upperRoman", "lowerRoman":
		if r := roman(n); r != "" {
			if format == "lowerRoman" {
				return strings.ToLower(r)
			}
			return r
		}
	case "upperLetter", "lowerLetter":
		if n >= 1 {
			// A, B, … Z, AA, BB, …: Word repeats the letter.
			s := strings.Repeat(string(rune('A'+(n-1)%26)), (n-1)/26+1)
			if format == "lowerLetter" {
				return strings.ToLower(s)
			}
			return s
		}
	case "ganada":
		return cycle(n, []rune("가나다라마바사아자차카타파하"))
	case "chosung":
		return cycle(n, []rune("ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"))
	case "decimalEnclosedCircle", "decimalEnclosedCircleChinese":
		if n >= 1 && n <= 20 {
			return string(rune('①' + n - 1))
		}
	case "koreanDigital", "koreanLegal", "koreanDigital2", "koreanCounting":
		if s := sinoKorean(n); s != "" {
			return s
		}
	}
	return strconv.Itoa(n)
}

func cycle(n int, letters []rune) string {
	if n < 1 {
		return strconv.Itoa(n)
	}
	return string(letters[(n-1)%len(letters)])
}

func roman(n int) string {
	if n < 1 || n > 3999 {
		return ""
	}
	var b strings.Builder
	for _, p := range []struct {
		v int
		s string
	}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
		for n >= p.v {
			b.WriteString(p.s)
			n -= p.v
		}
	}
	return b.String()
}

// sinoKorean writes 1–99 in Sino-Korean numerals (일, 이, … 십일, 구십구).
func sinoKorean(n int) string {
	if n < 1 || n > 99 {
		return ""
	}
	digits := []rune("일이삼사오육칠팔구")
	s := ""
	if tens := n / 10; tens > 0 {
		if tens > 1 {
			s = string(digits[tens-1])
		}
		s += "십"
	}
	if ones := n % 10; ones > 0 {
		s += string(digits[ones-1])
	}
	return s
}

// cutLabel is s to its first maxNumberLabel characters: a numbering's
// pattern, prefix or suffix is written before every paragraph it numbers,
// so a long one (an HWPX level's text of 9 MB, before a hundred
// paragraphs: 900 MB of text, 12 GB allocated) would cost its length
// again each time. Only the first bytes that can hold them are looked at.
func cutLabel(s string) string {
	s = s[:min(len(s), utf8.UTFMax*maxNumberLabel)]
	r := []rune(s)
	return string(r[:min(len(r), maxNumberLabel)])
}
