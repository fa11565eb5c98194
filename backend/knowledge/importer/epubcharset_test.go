package importer

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

// TestChaptersInOtherEncodings: a book's chapter is read in the encoding
// it names (its byte-order mark, its XML declaration, a <meta> charset),
// where a chapter in EUC-KR imported as U+FFFD without a word and one in
// UTF-16 was left out as binary data; a chapter in UTF-8 that declares
// another encoding (a template's leftover) is read as the UTF-8 it is.
func TestChaptersInOtherEncodings(t *testing.T) {
	ko := "한국어 본문입니다. 똠방각하."
	page := func(head string) string {
		return head + `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>장</title></head><body><p>` + ko + `</p></body></html>`
	}
	meta := `<html><head><meta http-equiv="Content-Type" content="text/html; charset=euc-kr"/></head><body><p>` + ko + `</p></body></html>`
	for _, tt := range []struct {
		name    string
		chapter []byte
	}{
		{"EUC-KR by its XML declaration", encode(t, korean.EUCKR, page(`<?xml version="1.0" encoding="euc-kr"?>`))},
		{"EUC-KR by a meta charset", encode(t, korean.EUCKR, meta)},
		{"UTF-16LE with its mark", append([]byte{0xFF, 0xFE}, encode(t, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), page(`<?xml version="1.0" encoding="UTF-16"?>`))...)},
		{"UTF-16BE with its mark", append([]byte{0xFE, 0xFF}, encode(t, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), page(`<?xml version="1.0" encoding="UTF-16"?>`))...)},
		{"UTF-8 declaring EUC-KR", []byte(page(`<?xml version="1.0" encoding="euc-kr"?>`))},
		{"UTF-8", []byte(page(`<?xml version="1.0" encoding="UTF-8"?>`))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := hostile.EPUB(&b, []string{"c1"}, map[string]string{"c1": string(tt.chapter)}); err != nil {
				t.Fatal(err)
			}
			docs, err := Importer{}.Import(context.Background(), "책.epub", b.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if got := docs[0].Parts[0].Text; !strings.Contains(got, ko) || strings.ContainsRune(got, '\uFFFD') {
				t.Fatalf("text %q, want %q in it", got, ko)
			}
		})
	}
}
