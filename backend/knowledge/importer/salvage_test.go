package importer

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestCutShortArchives: a ZIP-based file cut short (a download or copy
// that stopped) loses its directory of parts, which archive/zip needs to
// open anything; its parts are read from their own headers instead, and a
// warning says so (*ArchiveSalvaged). Cut after its last part, every
// format reads all its text; cut inside its body, the text up to the cut
// is read by the rule for a body that breaks (*BrokenOff); cut inside its
// first header, the file is damaged. Before, any such file was refused
// as damaged.
func TestCutShortArchives(t *testing.T) {
	sheets := [][2]string{{"수입", `<row><c t="inlineStr"><is><t>월급</t></is></c></row>`}, {"지출", `<row><c t="inlineStr"><is><t>월세</t></is></c></row>`}}
	var paras strings.Builder
	for range 2000 {
		paras.WriteString(p("", "문단이 여기 있다"))
	}
	for _, tt := range []struct {
		name, file string
		data       []byte
		want       []string
	}{
		{"Word", "문서.docx", docxOf(t, p("Heading1", "규정")+p("", "본문"), ""), []string{"# 규정", "본문"}},
		{"Excel", "가계부.xlsx", xlsxOf(t, "", "", "", sheets...), []string{"수입: 월급", "지출: 월세"}},
		{"PowerPoint", "발표.pptx", deck(t, "메모", []string{"첫 슬라이드", "둘째 슬라이드"}), []string{"첫 슬라이드", "둘째 슬라이드", "> 메모"}},
		{"EPUB", "책.epub", epubOf(t, []string{"<p>첫 장</p>", "<p>둘째 장</p>"}), []string{"첫 장", "둘째 장"}},
		{"OpenDocument text", "문서.odt", odtOf(t, "<text:p>본문</text:p>"), []string{"본문"}},
		{"HWPX", "문서.hwpx", hwpxOf(t, hp("0", "<hp:t>첫 구역</hp:t>"), hp("0", "<hp:t>둘째 구역</hp:t>")), []string{"첫 구역", "둘째 구역"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := bytes.Index(tt.data, []byte("PK\x01\x02"))
			var col collector
			warns, err := Importer{}.Read(context.Background(), tt.file, bytes.NewReader(tt.data[:dir]), &col)
			if err != nil {
				t.Fatal(err)
			}
			checkParts(t, col.docs[0], tt.want, nil, nil)
			var as *ArchiveSalvaged
			if len(warns) != 1 || !errors.As(warns[0], &as) || as.Cut != "" {
				t.Errorf("warnings %v, want one that the archive was read from its parts", warns)
			}
			if _, err := (Importer{}).Import(context.Background(), tt.file, tt.data[:20]); !errors.Is(err, ErrOfficeDamaged) {
				t.Errorf("cut in its first header: err %v, want damaged", err)
			}
		})
	}
	t.Run("Word, cut inside its body", func(t *testing.T) {
		data := docxOf(t, paras.String(), "")
		var col collector
		warns, err := Importer{}.Read(context.Background(), "문서.docx", bytes.NewReader(data[:len(data)*2/3]), &col)
		if err != nil {
			t.Fatal(err)
		}
		var as *ArchiveSalvaged
		var bo *BrokenOff
		if len(warns) != 2 || !errors.As(warns[0], &as) || as.Cut != "word/document.xml" || !errors.As(warns[1], &bo) || bo.Count < 10 {
			t.Fatalf("warnings %v, want the archive read from its parts, the body up to the cut", warns)
		}
		checkParts(t, col.docs[0], []string{"문단이 여기 있다"}, nil, nil)
	})
}

// TestCutShortArchiveBomb: a part read from its own header is held to
// the budget of unpacked XML, as one read through the directory is: a cut
// archive whose document inflates past it fails on the limit.
func TestCutShortArchiveBomb(t *testing.T) {
	data := zipOf(t, part{"word/document.xml", "<w:document>" + strings.Repeat("<w:p/>", MaxOfficeXML/6+1) + "</w:document>"})
	_, err := Importer{}.Import(context.Background(), "폭탄.docx", data[:bytes.Index(data, []byte("PK\x01\x02"))])
	if le := (*OfficeLimitError)(nil); !errors.As(err, &le) {
		t.Fatalf("err %v, want the limit", err)
	}
}
