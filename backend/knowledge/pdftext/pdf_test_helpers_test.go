package pdftext

import (
	"bytes"
	"crypto/md5"
	"crypto/rc4"
	"fmt"
)

// buildPDF writes a minimal, well-formed PDF from object bodies (object i+1 is
// objs[i]) with a correct cross-reference table. trailerExtra is added to the
// trailer dictionary (e.g. an /Encrypt reference).
func buildPDF(objs []string, trailerExtra string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailerExtra, xref)
	return b.Bytes()
}

// textPDF is a one-page PDF showing text with the standard Helvetica font.
func textPDF(text string) []byte {
	stream := fmt.Sprintf("BT /F1 24 Tf 72 700 Td (%s) Tj ET", text)
	return buildPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}, "")
}

// blankPDF has two pages and no text at all, like a scan without OCR.
func blankPDF() []byte {
	return buildPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
	}, "")
}

// pdfPadding is the password padding string of the PDF standard security handler.
var pdfPadding = []byte{
	0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
	0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
}

func padPassword(pw string) []byte {
	return append([]byte(pw), pdfPadding...)[:32]
}

func rc4Crypt(key, data []byte) []byte {
	c, err := rc4.NewCipher(key)
	if err != nil {
		panic(err)
	}
	out := make([]byte, len(data))
	c.XORKeyStream(out, data)
	return out
}

// encryptedPDF is a one-page PDF protected by a user password with the
// standard security handler (revision 2, RC4 40-bit), built by the
// algorithms 2–4 of ISO 32000-1 §7.6.3. Opening it without the password fails.
func encryptedPDF(userPassword string) []byte {
	perms := int32(-4)
	id := []byte("0123456789abcdef")
	ownerKey := md5.Sum(padPassword("owner-" + userPassword))
	o := rc4Crypt(ownerKey[:5], padPassword(userPassword))
	h := md5.New()
	h.Write(padPassword(userPassword))
	h.Write(o)
	h.Write([]byte{byte(perms), byte(perms >> 8), byte(perms >> 16), byte(perms >> 24)})
	h.Write(id)
	key := h.Sum(nil)[:5]
	u := rc4Crypt(key, pdfPadding)
	enc := fmt.Sprintf("<< /Filter /Standard /V 1 /R 2 /Length 40 /P %d /O <%x> /U <%x> >>", perms, o, u)
	return buildPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
		enc,
	}, fmt.Sprintf("/Encrypt 4 0 R /ID [<%x> <%x>]", id, id))
}
