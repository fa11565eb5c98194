package importer

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

// worded tells whether err is one of the failures the app words in the
// person's language (backend/app's reasonOf): anything else reaches the
// person as a Go error string.
func worded(err error) bool {
	var (
		ol  *OfficeLimitError
		hl  *HTMLLimitError
		old *LegacyError
		nt  *NotTextError
		je  *RecordTooLargeError
		tv  *TooManyValuesError
		tt  *TextTooLargeError
		syn *SyntaxError
	)
	return errors.Is(err, ErrOfficeDamaged) || errors.Is(err, ErrOfficeEncrypted) || errors.Is(err, ErrEmpty) ||
		errors.Is(err, ErrUnsupported) || errors.As(err, &ol) || errors.As(err, &hl) || errors.As(err, &old) ||
		errors.As(err, &nt) || errors.As(err, &je) || errors.As(err, &tv) || errors.As(err, &tt) || errors.As(err, &syn)
}

// TestHostileClasses reads every class of hostile file package hostile
// writes (but PDF's, which TestHostilePDFClasses reads through PDFium), at a scale small enough
// for a test: each imports or fails with a worded reason, and the classes
// that must fail fail with theirs.
func TestHostileClasses(t *testing.T) {
	type want int
	const (
		anyWorded   want = iota
		limit            // *OfficeLimitError
		damaged          // ErrOfficeDamaged
		tooDeep          // *SyntaxError, TooDeep
		imported         // no error: the attack is ignored, the text read
		warned           // imported, with a *MissingParts warning naming what was left out
		brokeOff         // imported up to a break, with a *BrokenOff warning saying where
		indexLost        // imported from the archive's parts, with an *IndexLost warning
		salvaged         // imported from the parts' own headers, with an *ArchiveSalvaged warning first
		cutOff           // salvaged, and broken off where the file was cut: *ArchiveSalvaged, then *BrokenOff
		repeated         // imported, each part once, with a *RepeatedParts warning
		cutIn            // salvaged, and cut in a part others follow: *ArchiveSalvaged, then *CutInPart
		repeatStop       // the repeats read up to a bound, the rest of the file not: *RepeatedParts, Stopped, and no *BrokenOff
		htmlLimit        // *HTMLLimitError
		tooMany          // *TooManyValuesError, from the line where the record begins
		skipped          // imported, a record left out as its text too large: *RecordsTextTooLarge, naming line 2
		manySkipped      // imported, a record left out as too many values: *RecordsTooManyValues, naming line 2
	)
	cases := map[string]struct {
		n    int
		want want
	}{
		"deep.docx":            {5000, limit},
		"deep.hwpx":            {5000, limit},
		"deep.odt":             {5000, limit},
		"laughs.docx":          {10, damaged},
		"xxe.docx":             {1, damaged},
		"attrs.docx":           {300_000, limit},
		"xmlns.docx":           {100_000, limit},
		"lying-directory.docx": {70_000, limit},
		"lying-zip64.docx":     {70_000, limit},
		"zip64.docx":           {1, limit},
		"sheet.docx":           {1, damaged},
		"app.docx":             {1, damaged},
		"nested.docx":          {1, damaged},
		"loop.epub":            {200_000, repeated},
		"loop.pptx":            {200_000, repeated},
		"loop.hwpx":            {200_000, repeated},
		"loop.odp":             {200_000, repeatStop},
		"loop.ods":             {200_000, repeatStop},
		"outside.epub":         {1, damaged},
		"traversal.docx":       {1, imported},
		"mixed.txt":            {1000, imported},
		"appended.log":         {1000, imported},
		"header.txt":           {1000, imported},
		"headings.md":          {1000, imported},
		"deep.json":            {100_000, tooDeep},
		"dirloop.hwp":          {1, damaged},
		"past.hwp":             {1, damaged},
		// spreadsheets, CSV, RTF (internal/hostile/sheets.go)
		"strings.xlsx":     {1000, imported},
		"oneword.xlsx":     {100, limit},
		"badindex.xlsx":    {1, imported},
		"farcell.xlsx":     {1000, imported},
		"rows.xlsx":        {1000, imported},
		"styles.xlsx":      {100_000, imported},
		"samesheet.xlsx":   {100, repeated},
		"sheets.xlsx":      {10_001, repeated},
		"manysheets.xlsx":  {10_001, limit},
		"outside.xlsx":     {1, warned}, // two sheets of three outside: the third is read
		"bomb.xlsx":        {65, limit},
		"dates.xlsx":       {1, imported},
		"fmttext.xlsx":     {70_000, limit}, // 70 MB of the format's text
		"deep.xlsx":        {5000, imported},
		"repeat.ods":       {1, imported},
		"nestedtables.ods": {1000, imported},
		"deep.ods":         {5000, imported},
		"openquote.csv":    {2, imported},
		"columns.csv":      {100_000, imported},
		"rows.csv":         {10_000, imported},
		"header.csv":       {2, imported},
		"utf16.csv":        {1000, imported},
		"junk.csv":         {100, anyWorded},
		"deep.rtf":         {5000, limit},
		"bin.rtf":          {1, imported},
		"unicode.rtf":      {1, imported},
		"pars.rtf":         {10_000, imported},
		"hex.rtf":          {2, imported},
		"raw.rtf":          {2, imported},
		"cells.rtf":        {100_000, imported},
		"braces.rtf":       {1, limit},
		"fonts.rtf":        {10_001, limit},
		"backslashes.rtf":  {1, imported},
		"word.rtf":         {1, imported},
		// parts there but unreadable (internal/hostile/parts.go)
		"halfslides.pptx":  {100, warned},
		"badsheet.xlsx":    {1, warned},
		"badcrc.epub":      {1, warned},
		"longbroken.hwpx":  {1, warned},
		"halfsections.hwp": {100, warned},
		"cutnotes.docx":    {1, warned},
		// a body of one part that breaks, an index lost (internal/hostile/broken.go)
		"brokenbody.ods":   {3, brokeOff},
		"onesheet.xlsx":    {1000, brokeOff},
		"hugerecord.hwp":   {100, brokeOff},
		"norels.xlsx":      {3, indexLost},
		"garbageopf.epub":  {3, indexLost},
		"backslashes.hwpx": {3, imported},
		"stalemain.docx":   {1, imported},
		// a directory gone or lying, damage besides (internal/hostile/salvage.go)
		"storedcut.docx":    {1000, salvaged},
		"storedjunk.docx":   {1, salvaged},
		"deflatedjunk.docx": {1, salvaged},
		"storedlying.docx":  {100, cutOff},
		"junkdir.epub":      {1, salvaged},
		"cutbook.epub":      {100, cutOff},
		"cutorder.epub":     {100, cutIn},
		"junkmiddle.pptx":   {100, salvaged},
		"lyingoffset.docx":  {1, salvaged},
		"oneslide.pptx":     {1000, brokeOff},
		// what a structure says of itself (internal/hostile/more.go)
		"overlap.xlsx":   {100, limit},
		"parts.docx":     {20_001, limit},
		"selfroot.epub":  {1, indexLost},
		"selfspine.epub": {1, imported},
		"surrogates.txt": {1000, imported},
		"field.csv":      {2, imported},
		// tokens a decoder holds whole, entities in every XML format, names,
		// unannounced encodings (internal/hostile/tokens.go)
		"comment.docx":    {2, imported},
		"nsmany.docx":     {4, limit},
		"pi.docx":         {2, imported},
		"cdata.docx":      {2, imported},
		"doctype.docx":    {2, imported},
		"laughs.xlsx":     {10, warned}, // the shared strings unreadable: the other cell is read
		"laughs.pptx":     {10, damaged},
		"laughs.odt":      {10, damaged},
		"laughs.hwpx":     {10, damaged},
		"laughs.epub":     {10, indexLost}, // the package document unreadable: the archive's pages are read
		"badnames.docx":   {1, imported},
		"line.jsonl":      {2, imported},
		"columns.tsv":     {100_000, imported},
		"zeros.json":      {4_400_000, tooMany},
		"empties.jsonl":   {2_200_000, manySkipped},
		"objects.json":    {700_000, tooMany},
		"longpath.jsonl":  {300_000, imported}, // the numbers written once under the cut path: 1.2 MB
		"longobjs.jsonl":  {40_000, skipped},   // 40 MB of text written out
		"hangul16le.txt":  {1000, imported},
		"hangul16be.txt":  {1000, imported},
		"bigopf.epub":     {100, imported},
		"binchapter.epub": {100, warned}, // the binary chapter left out and named
		"junkbody.rtf":    {100, anyWorded},
		"bigslide.pptx":   {2, imported},
		"longlabel.hwpx":  {1, imported},
		"comment.html":    {17, htmlLimit},
		"attr.html":       {17, htmlLimit},
	}
	// where the record too large begins
	recordLine := map[string]int64{"zeros.json": 1, "objects.json": 1}
	// what must and must not be read of a class's text
	texts := map[string]struct{ want, gone []string }{
		"comment.docx":    {[]string{"본문", "끝"}, []string{"주석"}},
		"pi.docx":         {[]string{"본문", "끝"}, []string{"주석"}},
		"doctype.docx":    {[]string{"본문"}, []string{"주석"}},
		"laughs.xlsx":     {[]string{"남은 값"}, []string{"haha"}},
		"laughs.epub":     {[]string{"첫 장"}, []string{"haha", "root:"}},
		"badnames.docx":   {[]string{"본문"}, nil},
		"line.jsonl":      {[]string{"첫 기록", "끝 기록", "긴줄"}, nil},
		"columns.tsv":     {[]string{"값", "둘째"}, nil},
		"hangul16le.txt":  {[]string{"999번째 줄: 한국어 문장을 적었습니다."}, nil},
		"hangul16be.txt":  {[]string{"999번째 줄: 한국어 문장을 적었습니다."}, nil},
		"bigopf.epub":     {[]string{"1번째 장의 글", "100번째 장의 글"}, nil},
		"loop.odp":        {[]string{"되풀이된 슬라이드"}, []string{"마지막 슬라이드"}},
		"binchapter.epub": {[]string{"첫 장의 글"}, []string{"\uFFFD"}},
		"longpath.jsonl":  {[]string{"첫 기록", "끝 기록", "…: 0 0 0"}, nil},
		"longobjs.jsonl":  {[]string{"첫 기록", "끝 기록"}, nil},
		"empties.jsonl":   {[]string{"첫 기록", "끝 기록"}, nil},
		"longlabel.hwpx":  {[]string{"제1000" + strings.Repeat("가", 61) + " 조문"}, []string{strings.Repeat("가", 62)}},
		"loop.ods":        {[]string{"되풀이된 표"}, []string{"마지막 표"}},
	}
	scale := map[string]int{"nested.html": 100_000, "line.html": 2, "string.json": 2, "tiny.jsonl": 10_000, "line.txt": 2,
		"duplicates.docx": 100, "mixed.txt": 100, "deep.epub": 5000}
	for _, c := range hostile.Classes() {
		if strings.HasSuffix(c.File, ".pdf") {
			continue
		}
		t.Run(c.File, func(t *testing.T) {
			tc, strict := cases[c.File]
			n := tc.n
			if !strict {
				n = scale[c.File]
				if n == 0 {
					n = 1
				}
			}
			var b bytes.Buffer
			if err := c.Write(&b, n); err != nil {
				t.Fatal(err)
			}
			var got collector
			warns, err := Importer{}.Read(context.Background(), filepath.Join(t.TempDir(), c.File), bytes.NewReader(b.Bytes()), &got)
			t.Logf("%s, %d bytes: %v %v", c.Name, b.Len(), err, warns)
			var mp *MissingParts
			var bo *BrokenOff
			var il *IndexLost
			var as *ArchiveSalvaged
			var rp *RepeatedParts
			var ci *CutInPart
			var (
				le  *OfficeLimitError
				syn *SyntaxError
				tv  *TooManyValuesError
				rtl *RecordsTextTooLarge
				rtm *RecordsTooManyValues
			)
			switch {
			case err != nil && !worded(err):
				t.Fatalf("err %v: not one the app words", err)
			case strict && tc.want == limit && !errors.As(err, &le):
				t.Fatalf("err %v, want the limit", err)
			case strict && tc.want == damaged && !errors.Is(err, ErrOfficeDamaged):
				t.Fatalf("err %v, want damaged", err)
			case strict && tc.want == tooDeep && !(errors.As(err, &syn) && syn.TooDeep && syn.Line == 1):
				t.Fatalf("err %v, want too deep from line 1", err)
			case strict && tc.want == imported && err != nil:
				t.Fatalf("err %v, want it imported", err)
			case strict && tc.want == warned && (err != nil || len(warns) != 1 || !errors.As(warns[0], &mp)):
				t.Fatalf("err %v, warnings %v: want it imported with the parts left out named", err, warns)
			case strict && tc.want == brokeOff && (err != nil || len(warns) != 1 || !errors.As(warns[0], &bo)):
				t.Fatalf("err %v, warnings %v: want it imported up to the break, and where it broke said", err, warns)
			case strict && tc.want == indexLost && (err != nil || len(warns) != 1 || !errors.As(warns[0], &il)):
				t.Fatalf("err %v, warnings %v: want its parts read from the archive, and the index's loss said", err, warns)
			case strict && tc.want == salvaged && (err != nil || len(warns) == 0 || !errors.As(warns[0], &as)):
				t.Fatalf("err %v, warnings %v: want its parts read from their own headers, and that said", err, warns)
			case strict && tc.want == cutOff && (err != nil || len(warns) != 2 || !errors.As(warns[0], &as) || !errors.As(warns[1], &bo)):
				t.Fatalf("err %v, warnings %v: want its parts read from their own headers, and where it was cut said", err, warns)
			case strict && tc.want == repeated && (err != nil || len(warns) != 1 || !errors.As(warns[0], &rp) || rp.Count == 0):
				t.Fatalf("err %v, warnings %v: want each part read once, and the repeats said", err, warns)
			case strict && tc.want == repeated && textSize(got.docs) > 64<<10:
				t.Fatalf("%d bytes of text: want the repeated part's once", textSize(got.docs))
			case strict && tc.want == cutIn && (err != nil || len(warns) != 2 || !errors.As(warns[0], &as) || !errors.As(warns[1], &ci) || ci.Count == 0):
				t.Fatalf("err %v, warnings %v: want its parts read from their own headers, and the chapter cut kept to the cut", err, warns)
			case strict && tc.want == repeatStop && (err != nil || len(warns) != 1 || !errors.As(warns[0], &rp) || !rp.Stopped || rp.Count != maxOfficeParts):
				t.Fatalf("err %v, warnings %v: want the repeats read to %d, and the rest of the file said lost", err, warns, maxOfficeParts)
			case strict && tc.want == tooMany && !(errors.As(err, &tv) && tv.Line == recordLine[c.File]):
				t.Fatalf("err %v, want too many values from line %d", err, recordLine[c.File])
			case strict && tc.want == skipped && (err != nil || len(warns) != 1 || !errors.As(warns[0], &rtl) || rtl.Count != 1 || rtl.Lines[0] != 2):
				t.Fatalf("err %v, warnings %v: want the record on line 2 left out as its text too large", err, warns)
			case strict && tc.want == manySkipped && (err != nil || len(warns) != 1 || !errors.As(warns[0], &rtm) || rtm.Count != 1 || rtm.Lines[0] != 2):
				t.Fatalf("err %v, warnings %v: want the record on line 2 left out as too many values", err, warns)
			case strict && tc.want == htmlLimit && !errors.As(err, new(*HTMLLimitError)):
				t.Fatalf("err %v, want the page's limit", err)
			case strict && tc.want == anyWorded && err == nil:
				t.Fatal("imported, want a worded failure")
			}
			if err == nil {
				var all strings.Builder
				for _, d := range got.docs {
					for _, p := range d.Parts {
						all.WriteString(p.Text)
					}
				}
				for _, w := range texts[c.File].want {
					if !strings.Contains(all.String(), w) {
						t.Errorf("%q is not in the text (%.200q…)", w, all.String())
					}
				}
				for _, g := range texts[c.File].gone {
					if strings.Contains(all.String(), g) {
						t.Errorf("%q is in the text", g)
					}
				}
			}
		})
	}
}

// textSize is the length of the text of docs.
func textSize(docs []Document) int {
	n := 0
	for _, d := range docs {
		for _, p := range d.Parts {
			n += len(p.Text)
		}
	}
	return n
}

// TestTitlesAreOneLine: a title is shown in lists and in the terminal, and
// comes from what the file chooses (its name, a page's <title>, a record,
// a heading); a newline, an escape sequence or a bidirectional override in
// it is a space, whatever the format.
func TestTitlesAreOneLine(t *testing.T) {
	for _, tt := range []struct {
		path, body, want string
	}{
		{"dir/ctl\x1b[31mred\x07\nnew\rline.txt", "본문", "ctl [31mred new line"},
		{"page.html", "<title>제목\x1b]0;owned\x07\n둘째 줄</title><p>본문</p>", "제목 ]0;owned\uFFFD 둘째 줄"}, // the decoder replaced the BEL,
		{"records.jsonl", `{"title":"기록\u001b[2J\u202etxt.exe","text":"본문"}`, "기록 [2J txt.exe"},
		{"notes.md", "# 머리\u0085말\x1b[1m\n\n본문", "머리 말 [1m"},
		{"\u2028줄\u2029바꿈\u2066.txt", "본문", "줄 바꿈"},
	} {
		docs, err := Importer{}.Import(context.Background(), tt.path, []byte(tt.body))
		if err != nil {
			t.Fatalf("%q: %v", tt.path, err)
		}
		if len(docs) != 1 || docs[0].Title != tt.want {
			t.Errorf("%q: title %q, want %q", tt.path, docs[0].Title, tt.want)
		}
	}
}

// TestTitlesFromNamesNotUTF8: a file's name that is not UTF-8 names its
// document in valid UTF-8: Korean in CP949 (a ZIP archive made on Korean
// Windows, unpacked here) read as Korean, where "한글.txt" was titled
// "\uFFFDѱ\uFFFD"; Latin-1 as Windows-1252, where since 616f672 it was
// read as CP949 Hanja ("Größe" as "Gr秤e"); a UTF-8 name stays.
func TestTitlesFromNamesNotUTF8(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"dir/\xc7\xd1\xb1\xdb.txt", "한글"},
		{"\xc8\xb8\xc0\xc7\xb7\xcf 2024.md", "회의록 2024"},
		{"\x8c\x63\xb9\xe6\xb0\xa2\xc7\xcf.txt", "똠방각하"},
		{"\xb0\xa1 \xa1\xa4 \xa3\xc1.txt", "가 · Ａ"}, // punctuation and full-width letters
		// Latin-1 and Windows-1252, which read as CP949 make Hanja
		{"caf\xe9.txt", "café"},
		{"Gr\xf6\xdfe.txt", "Größe"},              // CP949 "Gr秤e"
		{"\xc4\xd6\xdc\xe4\xf6\xfc.md", "ÄÖÜäöü"}, // CP949 "켯俸琢"
		{"\x93Zitat\x94 \x96 na\xefve.txt", "“Zitat” – naïve"},
		{"\xc7\xd1\xd7\xd6.txt", "ÇÑ×Ö"},     // CP949 "한" and a Hanja
		{"\x81\x9d x.txt", "\uFFFD\uFFFD x"}, // bytes Windows-1252 leaves undefined
		{"한글.txt", "한글"},
	} {
		docs, err := Importer{}.Import(context.Background(), tt.path, []byte("본문"))
		if err != nil {
			t.Fatalf("%q: %v", tt.path, err)
		}
		if docs[0].Title != tt.want {
			t.Errorf("%q: title %q, want %q", tt.path, docs[0].Title, tt.want)
		}
	}
}

// TestTitlesAreShort: a title the file chose is cut to MaxTitle characters,
// whatever the format; before, a JSON record's 30 MB title was stored,
// indexed and printed whole.
func TestTitlesAreShort(t *testing.T) {
	long := strings.Repeat("제목 ", 200_000)
	for _, tt := range []struct {
		path, body string
		cut        bool // the long title is taken, and cut
	}{
		{"records.jsonl", `{"title":"` + long + `","text":"본문"}`, true},
		{"notes.md", "# " + long + "\n\n본문", false}, // named after the file
		{"page.html", "<title>" + long + "</title><p>본문</p>", true},
	} {
		docs, err := Importer{}.Import(context.Background(), tt.path, []byte(tt.body))
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		if n := len([]rune(docs[0].Title)); n > MaxTitle || tt.cut && !strings.HasSuffix(docs[0].Title, "…") {
			t.Errorf("%s: title of %d characters (%.20q…), want at most %d, ending in …", tt.path, n, docs[0].Title, MaxTitle)
		}
		for _, p := range docs[0].Parts { // every chunk carries its heading
			if n := len([]rune(p.Heading)); n > MaxTitle {
				t.Errorf("%s: a heading of %d characters, want at most %d", tt.path, n, MaxTitle)
			}
		}
	}
	if got := oneLine(strings.Repeat("가", MaxTitle)); got != strings.Repeat("가", MaxTitle) {
		t.Errorf("a title of MaxTitle characters was cut: %d", len([]rune(got)))
	}
}
