package hostile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer/hwptest"
)

// partClasses are containers whose parts are there but cannot be read
// (XML that breaks, compressed data that does not inflate or fails its
// checksum, records cut short), among parts that can: the importer reads
// the good ones and names the others in a warning.
func partClasses() []Class {
	const pres = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	return []Class{
		{"pptx: n slides, every other one's XML cut short", "halfslides.pptx", 10_000, func(w io.Writer, n int) error {
			parts := map[string][]byte{}
			var ids, rels strings.Builder
			for i := 1; i <= max(n, 2); i++ {
				fmt.Fprintf(&ids, `<p:sldId id="%d" r:id="rId%d"/>`, 255+i, i)
				fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide%d.xml"/>`, i, i)
				slide := fmt.Sprintf(`<p:sld %s><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>슬라이드 %d</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`, pres, i)
				if i%2 == 0 {
					slide = slide[:len(slide)-20]
				}
				parts[fmt.Sprintf("ppt/slides/slide%d.xml", i)] = []byte(slide)
			}
			parts["ppt/presentation.xml"] = []byte(`<p:presentation ` + pres + `><p:sldIdLst>` + ids.String() + `</p:sldIdLst></p:presentation>`)
			parts["ppt/_rels/presentation.xml.rels"] = []byte(xlsxRels(rels.String()))
			return Zip(w, parts)
		}},
		{"xlsx: three sheets, the second's deflate data damaged", "badsheet.xlsx", 1, func(w io.Writer, n int) error {
			var sheets, rels strings.Builder
			zw := zip.NewWriter(w)
			for i := 1; i <= 3; i++ {
				fmt.Fprintf(&sheets, `<sheet name="시트%d" sheetId="%d" r:id="rId%d"/>`, i, i, i)
				fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, i, i)
				body := []byte(sheetXML(xlsxRow(fmt.Sprintf(`<c t="inlineStr"><is><t>값 %d</t></is></c>`, i))))
				if i == 2 {
					if err := rawPart(zw, "xl/worksheets/sheet2.xml", body, append([]byte{0x07}, deflate(body)...)); err != nil {
						return err
					}
					continue
				}
				if err := addPart(zw, fmt.Sprintf("xl/worksheets/sheet%d.xml", i), body); err != nil {
					return err
				}
			}
			if err := addPart(zw, "xl/workbook.xml", []byte(xlsxWorkbook(sheets.String()))); err != nil {
				return err
			}
			if err := addPart(zw, "xl/_rels/workbook.xml.rels", []byte(xlsxRels(rels.String()))); err != nil {
				return err
			}
			return zw.Close()
		}},
		{"epub: three chapters, the second failing its checksum", "badcrc.epub", 1, func(w io.Writer, n int) error {
			var b bytes.Buffer
			if err := EPUB(&b, []string{"c1", "c2", "c3"}, map[string]string{"c1": "<p>첫 장</p>", "c2": "<p>둘째 장</p>", "c3": "<p>셋째 장</p>"}); err != nil {
				return err
			}
			return rewrite(w, b.Bytes(), "OEBPS/c2.xhtml", func(body []byte) ([]byte, uint32) { return deflate(body), ^crc32.ChecksumIEEE(body) })
		}},
		{"hwpx: a section of n MB of text whose XML then breaks, between two good ones", "longbroken.hwpx", 20, func(w io.Writer, n int) error {
			sec := func(text string) string {
				return `<hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph"><hp:p><hp:run><hp:t>` + text + `</hp:t></hp:run></hp:p></hs:sec>`
			}
			long := `<hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph">` +
				strings.Repeat(`<hp:p><hp:run><hp:t>`+strings.Repeat("긴 구역 ", 100)+`</hp:t></hp:run></hp:p>`, n*1<<20/1145) + `<hp:p></hs:sec>`
			return Zip(w, map[string][]byte{"mimetype": []byte("application/hwp+zip"), "Contents/section0.xml": []byte(sec("첫 구역")),
				"Contents/section1.xml": []byte(long), "Contents/section2.xml": []byte(sec("셋째 구역"))})
		}},
		{"hwp: n sections, every other one cut short", "halfsections.hwp", 1000, func(w io.Writer, n int) error {
			var sections [][]byte
			for i := range max(n, 2) {
				s := hwptest.Para(0, 0, 0, hwptest.UTF16(fmt.Sprintf("구역 %d", i)))
				if i%2 == 1 {
					s = append(s, hwptest.Record(hwptest.TagParaText, 1, make([]byte, 40))[:20]...)
				}
				sections = append(sections, s)
			}
			_, err := w.Write(hwptest.File(0, nil, sections...))
			return err
		}},
		{"docx: footnotes.xml cut short", "cutnotes.docx", 1, func(w io.Writer, n int) error {
			const ns = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
			return Zip(w, map[string][]byte{
				"word/document.xml":            wordDoc(`<w:r><w:t>본문</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>`),
				"word/_rels/document.xml.rels": []byte(xlsxRels(`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>`)),
				"word/footnotes.xml":           []byte(`<w:footnotes ` + ns + `><w:footnote w:id="1"><w:p><w:r><w:t>각주`),
			})
		}},
	}
}

func deflate(b []byte) []byte {
	var out bytes.Buffer
	fw, _ := flate.NewWriter(&out, flate.BestSpeed)
	fw.Write(b)
	fw.Close()
	return out.Bytes()
}

func addPart(zw *zip.Writer, name string, body []byte) error {
	f, err := zw.Create(name)
	if err == nil {
		_, err = f.Write(body)
	}
	return err
}

// rawPart adds a part whose data, as the archive keeps it, is raw (body
// unpacked is what the headers say it holds).
func rawPart(zw *zip.Writer, name string, body, raw []byte) error {
	f, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(body),
		CompressedSize64: uint64(len(raw)), UncompressedSize64: uint64(len(body))})
	if err == nil {
		_, err = f.Write(raw)
	}
	return err
}

// rewrite is the archive data with the part name's data, as kept, and its
// checksum replaced by what damage gives.
func rewrite(w io.Writer, data []byte, name string, damage func(body []byte) ([]byte, uint32)) error {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	zw := zip.NewWriter(w)
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			return err
		}
		body, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return err
		}
		if f.Name != name {
			if err := addPart(zw, f.Name, body); err != nil {
				return err
			}
			continue
		}
		raw, sum := damage(body)
		fw, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: sum, CompressedSize64: uint64(len(raw)), UncompressedSize64: uint64(len(body))})
		if err != nil {
			return err
		}
		if _, err := fw.Write(raw); err != nil {
			return err
		}
	}
	return zw.Close()
}
