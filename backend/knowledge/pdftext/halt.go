package pdftext

import (
	"context"
	"runtime"
	"runtime/metrics"
)

// halt ends a page's layout when the page's context ends. The layout is
// Go code that runs after PDFium has handed over the glyphs, so neither
// wazero's context check nor PDFium's memory limit reaches it, and its
// cost grows faster than the glyphs: a page of 340,000 glyphs set in
// narrow columns side by side (findGutter tries each strip between them)
// took 66 s to lay out where the page's budget is 30 s, and nothing
// stopped it, nor the file's budget while it ran. The layout's loops call
// check (once a region, a line or a strip tried) or often (in the loops
// over glyphs), which panic with layoutStopped; layoutPage recovers it.
//
// It stops the layout too when the Go heap grows past heapMax (0: no
// limit): PDFium's memory limit does not reach the layout either, whose
// copies of a page's glyphs grow with how they are placed (glyphCost).
type halt struct {
	ctx     context.Context
	heapMax uint64
	n       uint32
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
	if h.heapMax > 0 && h.n%8 == 0 && heapInUse() > h.heapMax {
		// Garbage counts until it is collected: collect it before
		// deciding.
		runtime.GC()
		if heapInUse() > h.heapMax {
			panic(layoutStopped{errPageMemory})
		}
	}
	h.n++
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

// heapInUse is the memory of the Go heap's objects, the garbage not yet
// collected included.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// layoutPage is ruledPageText stopped by ctx and heapMax: it returns ctx's
// error when ctx ends before the page is laid out, errPageMemory when the
// Go heap grows past heapMax (0: no limit).
func layoutPage(ctx context.Context, heapMax uint64, gs []glyph, rules []rule) (text string, err error) {
	stop := &halt{ctx: ctx, heapMax: heapMax}
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

// goMemory is the memory the Go runtime holds from the system, as
// debug.SetMemoryLimit counts it (PDFium's memory, mapped apart, is not).
func goMemory() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// heapLive is the heap the last collection kept: what the process holds
// for good, without the garbage of what ran before.
func heapLive() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
