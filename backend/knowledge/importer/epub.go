package importer

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
)

// An EPUB book is a ZIP archive of XHTML chapters listed, in reading
// order, by the spine of its package document (META-INF/container.xml
// names it). Each chapter is read as a web page (html.go) into one
// Markdown document, named by the book's title; the same limits as an
// office file's hold (its XML unpacked, its directory). A chapter the
// spine names that the book lacks (not in the manifest, not in the
// archive, outside it), or that is there but cannot be read (its
// compressed data damaged), is left out and named in a warning
// (*MissingParts); a book none of whose chapters can be read is damaged. A
// book whose chapters are encrypted (DRM; META-INF/encryption.xml lists
// them) cannot be read and is said to be protected; fonts obfuscated the
// standard way are only fonts, and do not count.
func readEPUB(ctx context.Context, filePath string, r io.Reader, sink Sink, warn *warnings) error {
	z, err := openArchive(r, warn)
	if err != nil {
		return err
	}
	opf := rootFile(z)
	if opf == "" {
		// META-INF/container.xml missing or damaged: the book's package
		// document is the archive's one .opf part, if it has one.
		if found := recoverParts(z, nil, func(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".opf") }, nil); len(found) == 1 {
			opf = found[0]
		}
	}
	pkg := opfPackage{items: map[string]opfItem{}}
	if opf != "" {
		pkg = readPackage(z, opf)
	}
	title, items, spine := pkg.title, pkg.items, pkg.spine
	if pkg.broken || len(spine) == 0 {
		spine = recoveredSpine(pkg) // no spine: the manifest's chapters, in its order
	}
	var chapters, hrefs []string
	lost := &MissingParts{Unit: "chapter"}
	// A book cut short (its archive salvaged, no directory before the
	// file's end) ends in the chapter cut, or after the last it holds: the
	// chapters the spine names after that, not in the archive, went with
	// the cut, which the warning of where it broke says, rather than
	// each being named missing.
	cut, short := "", false
	if as := warn.salvaged(); as != nil {
		cut, short = as.Cut, as.Short
	}
	var afterCut []string
	// A chapter the spine names again is read once, where it first
	// comes (RepeatedParts); a missing one is named once.
	again := newRepeats("chapter")
	for _, id := range spine {
		it, ok := items[id]
		if !ok {
			if !again.first("\x00"+id, id) {
				continue
			}
			lost.Total++
			lost.missing(id) // a spine entry the manifest lacks
			continue
		}
		if !strings.Contains(it.mediaType, "html") {
			continue // an image or a stylesheet in the spine is no chapter
		}
		href, err := url.PathUnescape(it.href)
		if err != nil {
			href = it.href
		}
		// A chapter outside the book ("../../etc/passwd", "/etc/passwd":
		// fs.ValidPath refuses both, so z.Open never opens them) or a part
		// the book lacks is a missing chapter; the package document
		// itself is none.
		name := path.Join(path.Dir(opf), href)
		if name == opf || !again.first(name, href) {
			continue
		}
		if _, err := fs.Stat(z, name); err != nil || !fs.ValidPath(name) {
			afterCut = append(afterCut, href) // missing, unless a chapter follows
			continue
		}
		for _, h := range afterCut {
			lost.Total++
			lost.missing(h)
		}
		afterCut = afterCut[:0]
		lost.Total++
		chapters, hrefs = append(chapters, name), append(hrefs, href)
	}
	if pkg.broken && len(chapters) > 0 {
		had := len(chapters)
		chapters, hrefs = unlisted(z, opf, items, chapters, hrefs)
		lost.Total += len(chapters) - had
	}
	if len(chapters) == 0 { // no chapter at all: none was cut off after another
		for _, href := range afterCut {
			lost.Total++
			lost.missing(href)
		}
		afterCut = nil
	}
	var indexLost *IndexLost
	if len(chapters) == 0 && (len(items) == 0 || lost.Count == 0) {
		// No package document, or one that is not XML or lists no
		// chapter: the archive's web pages are the chapters, in its
		// order, and the warning says the order is the archive's.
		chapters, hrefs = archivePages(z, opf)
		lost = &MissingParts{Unit: "chapter", Total: len(chapters)}
		index := opf
		if index == "" {
			index = "META-INF/container.xml"
		}
		indexLost = &IndexLost{Unit: "chapter", Index: index, Count: len(chapters)}
	}
	if len(chapters) == 0 {
		// A spine whose chapters are all missing is a damaged book, not
		// an empty one: the person can find a good copy.
		if lost.Count > 0 {
			return lost.damaged()
		}
		return fmt.Errorf("%w: the spine names no chapter the book holds", ErrOfficeDamaged)
	}
	if len(chapters) > maxOfficeParts {
		return &OfficeLimitError{What: "number of chapters"}
	}
	if encrypted(z, chapters) {
		return ErrOfficeEncrypted
	}
	w := &mdWriter{sink: sink, doc: Document{Title: baseName(filePath), Source: filePath, Kind: KindEPUB, Markdown: true}}
	if title = strings.TrimSpace(title); title != "" {
		w.doc.Title, w.titled = title, true
	}
	budget := &xmlBudget{left: MaxOfficeXML}
	broke, cutIn, err := readChapters(ctx, z, chapters, hrefs, cut, w, budget, lost, warn)
	budget.release()
	if err != nil {
		return err
	}
	if cutIn != nil {
		// Cut in a chapter the spine names before others: what the
		// cut took besides (chapters after it in the archive) is missing.
		warn.add(cutIn)
	} else if broke == nil && short && w.paras > 0 && (len(afterCut) > 0 || indexLost != nil) {
		// Cut between two parts: what the cut took is said as a break
		// after the last paragraph read.
		broke = brokenOff("paragraph", w.paras, w.last, errors.New("the file is cut short after it"))
	}
	if broke != nil {
		warn.add(broke)
		// The break says the rest was not imported: the chapters after
		// it, and the index, which a cut takes with it when it follows
		// the chapters in the archive.
		afterCut, indexLost = nil, nil
	}
	for _, href := range afterCut {
		lost.Total++
		lost.missing(href)
	}
	if lost.all() {
		return lost.damaged()
	}
	lost.report(warn)
	again.report(warn)
	if indexLost != nil {
		if err := w.end(); err != nil {
			return brokenEmpty(err, indexLost)
		}
		warn.add(indexLost)
		return nil
	}
	return w.end()
}

// archivePages are the web pages of z in the archive's order (the
// package document opf itself left out), each with its name as its href:
// the chapters of a book whose package document is missing or useless.
func archivePages(z *zip.Reader, opf string) (names, hrefs []string) {
	seen := map[string]bool{}
	for _, f := range z.File {
		name := entryName(f.Name)
		ext := strings.ToLower(path.Ext(name))
		if (ext == ".xhtml" || ext == ".html" || ext == ".htm") && name != opf && !seen[name] && fs.ValidPath(name) {
			seen[name] = true
			names, hrefs = append(names, name), append(hrefs, name)
		}
	}
	return names, hrefs
}

// unlisted adds to a book's chapters the archive's web pages that its
// package document, damaged or past maxPackage, did not get to list, in
// the archive's order: the manifest's own order holds only what it
// listed before the damage, and a book whose package document broke
// after some of its chapters lost the others without a word. A page the
// manifest lists and the spine leaves out (its table of contents) stays
// out.
func unlisted(z *zip.Reader, opf string, items map[string]opfItem, chapters, hrefs []string) ([]string, []string) {
	listed := make(map[string]bool, len(items)+len(chapters))
	for _, it := range items {
		href, err := url.PathUnescape(it.href)
		if err != nil {
			href = it.href
		}
		listed[path.Join(path.Dir(opf), href)] = true
	}
	for _, c := range chapters {
		listed[c] = true
	}
	names, _ := archivePages(z, opf)
	for _, name := range names {
		if !listed[name] {
			chapters = append(chapters, name)
			hrefs = append(hrefs, strings.TrimPrefix(name, path.Dir(opf)+"/"))
		}
	}
	return chapters, hrefs
}

// recoveredSpine is the spine of a package document that could not be
// read to its end, then the chapters of its manifest the spine did not
// get to name, in the manifest's order (its table of contents, "nav",
// is no chapter): a book whose package document is damaged halfway loses
// none of the chapters its manifest lists.
func recoveredSpine(pkg opfPackage) []string {
	spine := pkg.spine
	inSpine := make(map[string]bool, len(spine))
	for _, id := range spine {
		inSpine[id] = true
	}
	for _, id := range pkg.order {
		if it := pkg.items[id]; !inSpine[id] && strings.Contains(it.mediaType, "html") && !slices.Contains(strings.Fields(it.properties), "nav") {
			spine = append(spine, id)
		}
	}
	return spine
}

// readChapters reads the chapters in order into w. One that cannot be
// opened (an unknown compression method) or read to its end (its
// compressed data damaged) is left out whole and counted in lost, named
// by its href.
//
// A book of one chapter whose compressed data breaks after some
// paragraphs keeps them and says where it broke (broke), as a Word file
// does. So does a book cut short in its last chapter (cut, the part a
// salvaged archive ends in): a web page read to the cut would end
// without an error, its last paragraph half; it is read as breaking
// there, so that the paragraphs read whole before are kept with the
// chapters before them. Before, such a book imported the half paragraph
// and said only that its index was lost (which the cut took along).
//
// The chapter cut may come before others in the spine (the archive keeps
// them in another order): its paragraphs read whole are kept as well,
// the chapters after it read, and the cut said (cutIn), rather than the
// chapter left out whole as a damaged one is; one cut before any whole
// paragraph is left out and named.
func readChapters(ctx context.Context, z *zip.Reader, chapters, hrefs []string, cut string, w *mdWriter, budget *xmlBudget, lost *MissingParts, warn *warnings) (broke *BrokenOff, cutIn *CutInPart, err error) {
	var long *LongSkipped
	for i, name := range chapters {
		f, err := z.Open(name)
		if err != nil {
			lost.unreadable(hrefs[i], err)
			continue
		}
		if len(chapters) > 1 {
			w.beginPart()
		}
		before := w.paras
		var r io.Reader = f
		parts := len(chapters)
		if name == cut {
			r = cutShort{f}
			if i == len(chapters)-1 {
				parts = 1 // the body the book is, up to the cut
			}
		}
		p := &htmlPage{w: w, tables: tables{w: w}, long: func(what string) {
			// One token past the tokenizer's bound (a script of 20 MB, a
			// data: URI, a paragraph of 24) is skipped, not the chapter.
			if long == nil {
				long = &LongSkipped{Unit: "chapter", Part: shortened(hrefs[i], maxNameChars), What: what}
				warn.add(long)
			}
			long.Count++
		}}
		err = budget.judged(p.read(ctx, budgetReader{r: &binaryGuard{r: chapterText(r)}, b: budget}))
		f.Close()
		if off := w.brokeOff(err, parts); off != nil {
			if err := w.endPart(); err != nil { // what was read of it whole is kept
				return nil, nil, err
			}
			return off, nil, nil
		}
		if name == cut && unreadable(err) && w.paras > before {
			cutIn = &CutInPart{Unit: "chapter", Part: shortened(hrefs[i], maxNameChars), Count: w.paras - before, Last: shortened(w.last, maxLastChars)}
			err = nil
		}
		if unreadable(err) {
			if !w.dropPart() && len(chapters) > 1 {
				// Past maxPartHeld some of it was handed on and stays:
				// not "not imported".
				warn.add(&PartlyRead{Unit: "chapter", Part: shortened(hrefs[i], maxNameChars)})
				continue
			}
			lost.unreadable(hrefs[i], err)
			continue
		}
		if err == nil {
			err = w.endPart()
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return nil, cutIn, nil
}

// binaryGuard fails a chapter that is binary data (a picture, or junk,
// under a web page's name) as unreadable: a web page file so made is
// refused (its text reader's NotTextError), but a chapter went to the
// tokenizer as it was, and a book whose chapter was 5 MB of random bytes
// imported 4,904 chunks of them without a word. Control bytes (below
// 0x20 but tab, line and form feeds and carriage return; NUL among them)
// have no place in a web page's text: past 32 of them, and more than one
// byte in a hundred read, the chapter is left out and named, as one whose
// compressed data is damaged. A stray few in a real chapter are not.
type binaryGuard struct {
	r              io.Reader
	read, controls int64
}

func (b *binaryGuard) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	for _, c := range p[:n] {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r' {
			b.controls++
		}
	}
	b.read += int64(n)
	if b.controls > 32 && b.controls*100 > b.read {
		return 0, fmt.Errorf("%w: binary data, not a web page (%d control bytes in its first %d)", ErrOfficeDamaged, b.controls, b.read)
	}
	return n, err
}

// cutShort reads a part the file is cut short in: its end is a break,
// not the end of its text.
type cutShort struct{ r io.Reader }

func (c cutShort) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("%w: the file is cut short in it", ErrOfficeDamaged)
	}
	return n, err
}

// rootFile is the package document META-INF/container.xml names.
func rootFile(z *zip.Reader) string {
	f, err := z.Open("META-INF/container.xml")
	if err != nil {
		return ""
	}
	defer f.Close()
	root := ""
	_ = eachStart(newDecoder(io.LimitReader(f, 1<<20)), func(e xml.StartElement) {
		if root == "" && e.Name.Local == "rootfile" {
			root = attr(e, "full-path")
		}
	})
	return root
}

// encrypted says whether META-INF/encryption.xml encrypts any chapter.
func encrypted(z *zip.Reader, chapters []string) bool {
	f, err := z.Open("META-INF/encryption.xml")
	if err != nil {
		return false
	}
	defer f.Close()
	isChapter := make(map[string]bool, len(chapters))
	for _, c := range chapters {
		isChapter[c] = true
	}
	found := false
	_ = eachStart(newDecoder(io.LimitReader(f, 1<<20)), func(e xml.StartElement) {
		if e.Name.Local == "CipherReference" {
			uri, err := url.PathUnescape(attr(e, "URI"))
			if err == nil && isChapter[strings.TrimPrefix(uri, "/")] {
				found = true
			}
		}
	})
	return found
}
