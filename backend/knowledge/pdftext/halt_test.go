package pdftext

import (
	"context"
	"errors"
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
// work hard; each takes seconds or more to lay out whole.
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
	{"all at one point", func() []glyph {
		return hostilePage(250_000, 1, func(int) (float64, float64) { return 300, 400 })
	}},
	{"each on a line of its own", func() []glyph {
		return hostilePage(250_000, 1, func(i int) (float64, float64) { return 300, 780 - float64(i)*0.003 })
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
			text, err := layoutPage(ctx, gs, nil)
			took := time.Since(start)
			t.Logf("%d glyphs: stopped after %v", len(gs), took)
			if !errors.Is(err, context.DeadlineExceeded) || text != "" {
				t.Fatalf("layoutPage = %d bytes, %v; want the deadline's error", len(text), err)
			}
			if took > 2*time.Second {
				t.Errorf("the layout went on for %v after a deadline of 100ms", took)
			}
		})
	}
}
