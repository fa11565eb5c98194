package importer

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/internal/hostile"
)

// TestXMLPartsInOtherEncodings: a Word file whose document part is in an
// encoding XML allows other than UTF-8 is read (each was refused as
// damaged: encoding/xml reads UTF-8 only): UTF-16 with its byte-order
// mark or without one, EUC-KR under its labels, ISO-8859-1, a UTF-8 mark,
// and a declaration of UTF-16 over bytes in UTF-8 (.NET's XmlWriter over
// a StringWriter). A label no one knows is still damage.
func TestXMLPartsInOtherEncodings(t *testing.T) {
	body := func(text string) string {
		return `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>` +
			text + `</w:t></w:r></w:p></w:body></w:document>`
	}
	decl := func(enc string) string { return `<?xml version="1.0" encoding="` + enc + `" standalone="yes"?>` }
	le := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	be := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	ko := "한국어 본문, 똠방각하"
	for _, tt := range []struct {
		name string
		part []byte
		want string // "": damaged
	}{
		{"UTF-16LE with its mark", append([]byte{0xFF, 0xFE}, encode(t, le, decl("UTF-16")+body(ko))...), ko},
		{"UTF-16BE with its mark", append([]byte{0xFE, 0xFF}, encode(t, be, decl("utf-16")+body(ko))...), ko},
		{"UTF-16LE without a mark", encode(t, le, decl("UTF-16")+body(ko)), ko},
		{"UTF-16BE without a mark", encode(t, be, decl("UTF-16")+body(ko)), ko},
		{"UTF-16 declared over UTF-8", []byte(decl("utf-16") + body(ko)), ko},
		{"EUC-KR", encode(t, korean.EUCKR, decl("euc-kr")+body(ko)), ko},
		{"ks_c_5601-1987", encode(t, korean.EUCKR, decl("ks_c_5601-1987")+body(ko)), ko},
		{"ISO-8859-1", encode(t, charmap.ISO8859_1, decl("ISO-8859-1")+body("Café crème")), "Café crème"},
		{"UTF-8 with its mark", append([]byte("\xef\xbb\xbf"), decl("UTF-8")+body(ko)...), ko},
		{"an unknown encoding", []byte(decl("x-unknown-7") + body("글")), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := hostile.Zip(&b, map[string][]byte{"word/document.xml": tt.part}); err != nil {
				t.Fatal(err)
			}
			docs, err := Importer{}.Import(context.Background(), "문서.docx", b.Bytes())
			if tt.want == "" {
				if !errors.Is(err, ErrOfficeDamaged) {
					t.Fatalf("err %v, want damaged", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := docs[0].Parts[0].Text; !strings.Contains(got, tt.want) {
				t.Fatalf("text %q, want %q in it", got, tt.want)
			}
		})
	}
}
