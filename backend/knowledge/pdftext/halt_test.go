package pdftext

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hostilePage is n glyphs of size pt, glyph i at place(i), each after a
// generated space as PDFium reads glyphs that jump about.
func hostilePage(n int, size float64, place func(i int) (x, y float64)) []glyph {
	gs := make([]glyph, 0, 2*n)
	for i := range n {
		x, y := place(i)
		if i > 0 {
			gs = append(gs, glyph{r: ' ', gen: true})
		}
		gs = append(gs, glyph{r: rune('a' + i%26), x0: x, x1: x + 0.556*size, lo: y - 0.2*size, hi: y + 0.8*size, h: size})
	}
	return gs
}

// hostileLayouts are pages whose glyphs are placed to make the layout
// work hard; each takes seconds or more to lay out whole (half a million
// glyphs at one point, or one a line, take a fraction of a second).
var hostileLayouts = []struct {
	name string
	gs   func() []glyph
}{
	{"narrow columns side by side", func() []glyph {
		return hostilePage(150_000, 0.1, func(i int) (float64, float64) {
			line, col := i/16, i/16/60
			return 2 + float64(col)*1.2 + float64(i%16)*0.0556, 780 - float64(line%60)*0.12
		})
	}},
	{"scattered", func() []glyph {
		return hostilePage(100_000, 1, func(i int) (float64, float64) {
			s := uint64(i)*0x9E3779B97F4A7C15 + 1
			s ^= s >> 31
			s *= 0xBF58476D1CE4E5B9
			s ^= s >> 29
			return float64(s%6000) / 10, float64(s>>32%7900) / 10
		})
	}},
}

// TestLayoutStopsAtDeadline: the layout of a page (Go, after PDFium) ends
// soon after the page's context does, whatever the glyphs; without the
// halt the narrow columns took 66 s of a 30 s budget (halt.go).
func TestLayoutStopsAtDeadline(t *testing.T) {
	for _, tt := range hostileLayouts {
		t.Run(tt.name, func(t *testing.T) {
			gs := tt.gs()
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			text, err := layoutPage(ctx, 0, gs, nil)
			took := time.Since(start)
			t.Logf("%d glyphs: stopped after %v", len(gs), took)
			if !errors.Is(err, context.DeadlineExceeded) || text != "" {
				t.Fatalf("layoutPage = %d bytes, %v; want the deadline's error", len(text), err)
			}
			// The layout looks at its context between steps of at most a
			// few hundred milliseconds (the race detector's several times
			// that: the scattered page stopped 5.1 s after the deadline in
			// a loaded CI run); whole, these pages take 11–28 s, minutes
			// under the detector, so its 30 s still tells a layout that
			// never stops.
			limit := 2 * time.Second
			if raceDetector {
				limit = 30 * time.Second
			}
			if took > limit {
				t.Errorf("the layout went on for %v after a deadline of 100ms", took)
			}
		})
	}
}

// TestLayoutStopsAtItsMemory: the layout of a page stops with
// errPageMemory when the Go heap grows past what the file's budget leaves
// it (heapMax, halt.go): narrow columns side by side, whose regions copy
// the glyphs at each split, cost 745 bytes a glyph, twice what scattered
// ones do. With room, a page is read.
func TestLayoutStopsAtItsMemory(t *testing.T) {
	gs := hostileLayouts[0].gs()
	runtime.GC()
	text, err := layoutPage(context.Background(), heapLive()+1<<20, gs, nil)
	if !errors.Is(err, errPageMemory) || text != "" {
		t.Fatalf("layoutPage = %d bytes, %v; want errPageMemory", len(text), err)
	}
	small := stacked("a page that fits", "in the room it has")
	if text, err := layoutPage(context.Background(), heapLive()+64<<20, small, nil); err != nil || text != ruledPageText(small, nil) {
		t.Errorf("a small page with room: %q, %v", text, err)
	}
}

// TestPageChargedWithItsLayout: a page is not read when its glyphs, at
// glyphCost each, would not fit beside PDFium's memory and the text kept
// in the file's budget; the same page is read with room enough.
func TestPageChargedWithItsLayout(t *testing.T) {
	cache := filepath.Join(os.TempDir(), "wayfinder-pdftext-test-cache")
	var content strings.Builder
	// One line on the page, 100,000 glyphs beside it, off the page: they
	// are read from PDFium (and charged) but not laid out, so only the
	// charge can refuse the page.
	content.WriteString("BT /F1 12 Tf 72 700 Td (on the page) Tj ET BT /F1 1 Tf 5000 780 Td ")
	for range 100 {
		content.WriteString("(" + strings.Repeat("abcd ", 200) + ") Tj 0 -1.2 Td\n")
	}
	content.WriteString("ET")
	data := buildPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		pdfStream(content.String()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}, "")
	for _, tt := range []struct {
		name     string
		limits   Limits
		tooLarge bool
	}{
		// 100,000 characters cost 37.5 MB: 64 MB, less PDFium's few MB
		// and the Go runtime's 32, leave too little room, 128 MB enough.
		{"too little room", Limits{Memory: 64 << 20, TextBytes: 1 << 20}, true},
		{"room enough", Limits{Memory: 128 << 20, TextBytes: 1 << 20}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, err := New(context.Background(), cache, WithLimits(tt.limits))
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close(context.Background())
			pages, err := e.Extract(context.Background(), data)
			if !tt.tooLarge {
				if err != nil || len(pages) != 1 || strings.TrimSpace(pages[0].Text) != "on the page" {
					t.Fatalf("Extract = %d pages, %v; want the page", len(pages), err)
				}
				return
			}
			var le *LimitError
			if !errors.As(err, &le) || !errors.Is(err, ErrTooLarge) || le.Limit != LimitMemory ||
				err.Error() != "this PDF expands to more than 64 MB in memory; it looks damaged or hostile" {
				t.Fatalf("Extract = %v; want the memory limit", err)
			}
		})
	}
}

// TestLayoutMemoryGivenBack reads, in a child process, a page of 150,000
// glyphs one a line (300,000 characters with PDFium's line breaks): the
// heap its layout took is given back when the file is done (extract frees
// it), where the process stayed 120 MB above idle after a page of 490,000.
func TestLayoutMemoryGivenBack(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's shadow memory is in every figure; make test runs this again without -race (NO_RACE_TESTS)")
	}
	if os.Getenv(childEnv) != "" {
		e := newTestExtractor(t)
		if err := childFigures(t, e, os.Getenv(childEnv)); err != nil {
			t.Errorf("Extract: %v", err)
		}
		return
	}
	var c strings.Builder
	c.WriteString("BT /F1 1 Tf\n")
	for i := range 150_000 {
		fmt.Fprintf(&c, "1 0 0 1 300 %.4f Tm (%c) Tj\n", 780-float64(i)*0.005, 'a'+i%26)
	}
	c.WriteString("ET")
	data := buildPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		pdfStream(c.String()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}, "")
	idle, peak, after, msg := inChild(t, "TestLayoutMemoryGivenBack", data)
	if msg != "<nil>" {
		t.Fatalf("child's error %q", msg)
	}
	if peak-idle < 64<<10 {
		t.Errorf("the page took %d MB: too little to tell whether it is given back", (peak-idle)>>10)
	}
	if after-idle > 24<<10 {
		t.Errorf("after the file the process holds %d MB more than idle: the layout's heap not given back", (after-idle)>>10)
	}
}
