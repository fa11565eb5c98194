package pdftext

import "context"

// halt ends a page's layout when the page's context ends. The layout is
// Go code that runs after PDFium has handed over the glyphs, so neither
// wazero's context check nor PDFium's memory limit reaches it, and its
// cost grows faster than the glyphs: a page of 340,000 glyphs set in
// narrow columns side by side (findGutter tries each strip between them)
// took 66 s to lay out where the page's budget is 30 s, and nothing
// stopped it, nor the file's budget while it ran. The layout's loops call
// check (once a region, a line or a strip tried) or often (in the loops
// over glyphs), which panic with layoutStopped; layoutPage recovers it.
type halt struct {
	ctx context.Context
	n   uint32
}

// layoutStopped is the panic that carries a halted layout's reason.
type layoutStopped struct{ err error }

// check stops the layout when its context has ended. A nil halt (the
// tests that lay out glyphs of their own) never stops.
func (h *halt) check() {
	if h == nil {
		return
	}
	select {
	case <-h.ctx.Done():
		panic(layoutStopped{h.ctx.Err()})
	default:
	}
}

// often is check for the innermost loops: the context is looked at every
// 1024th call.
func (h *halt) often() {
	if h == nil {
		return
	}
	if h.n++; h.n%1024 == 0 {
		h.check()
	}
}

// layoutPage is ruledPageText stopped by ctx: it returns ctx's error when
// ctx ends before the page is laid out.
func layoutPage(ctx context.Context, gs []glyph, rules []rule) (text string, err error) {
	stop := &halt{ctx: ctx}
	defer func() {
		if r := recover(); r != nil {
			s, ok := r.(layoutStopped)
			if !ok {
				panic(r)
			}
			text, err = "", s.err
		}
	}()
	stop.check()
	return layOut(stop, gs, rules), nil
}
