// Where the reader scrolls to when it opens on a hit. The label of the
// hit's section (its page and heading) sticks at the top of the view while
// that section is read, and it covers what scrolls under it: a line of the
// hit under it would be a line the person does not see, the first one
// most of all. So the part of the view the hit is placed in is the part
// below that label, however high the label is (two lines when it wraps in
// a narrow window or in Korean).

/** Placement is what hitScrollTop measures from, in pixels, all in the reader's scrolled content. */
export type Placement = {
  /** top is how far down the scrolled content the hit starts (its label "Cited as …", when it has one). */
  top: number;
  /** height is the hit's, from its top to its last line. */
  height: number;
  /** view is the height the reader shows at once (clientHeight). */
  view: number;
  /** cover is what a label stuck at the view's top hides of it: the label's height and the room under it; 0 without one. */
  cover: number;
  /** max is the furthest the reader scrolls (scrollHeight - clientHeight). */
  max: number;
  /**
   * mark is where the hit's first marked word (the search's words) is, from the hit's top: the top and bottom of
   * its line; absent when nothing in the hit is marked.
   */
  mark?: { top: number; bottom: number };
};

/**
 * hitScrollTop is the scroll position that shows the hit below the label
 * stuck at the view's top: a hit that fits is centred in the rest of the
 * view, with what comes before and after it around it; a taller one starts
 * just under the label, so that its first line is read first rather than
 * its middle — unless its first marked word would then be below the view
 * (the words searched for at the end of a long passage): then that word's
 * line is placed a third of the way down the view under the label, with
 * the lines before it above it, since it is why the passage was opened.
 * Rounded down: a fraction of a pixel more puts the hit lower, never under
 * the label.
 */
export function hitScrollTop(p: Placement): number {
  const free = p.view - p.cover;
  let at: number;
  if (p.height <= free) at = p.top - p.cover - (free - p.height) / 2;
  else if (p.mark && p.mark.bottom > free) at = p.top + p.mark.top - p.cover - Math.max(0, free - (p.mark.bottom - p.mark.top)) / 3;
  else at = p.top - p.cover;
  return Math.floor(Math.max(0, Math.min(p.max, at)));
}

/** Line is a line of text's box in the view (its letters' top and bottom), in pixels. */
export type Line = { top: number; bottom: number };

/**
 * lineShift is how far to scroll (positive: down the document) so that a line cut by the bottom edge of the label
 * stuck at the view's top, `under`, is not cut: a person who scrolled leaves the lines wherever they stop, and the
 * line under the label would show only its lower part, half a line of letters that reads as nothing. The line is shown
 * whole when at least half of it shows, else hidden whole under the label: the shorter of the two moves, less than a
 * line either way. 0 when the line is not cut (half a pixel of rounding is not a cut).
 */
export function lineShift(line: Line, under: number): number {
  if (line.top >= under - 0.5 || line.bottom <= under + 0.5) return 0;
  const shown = line.bottom - under;
  return shown * 2 >= line.bottom - line.top ? Math.floor(line.top - under) : Math.ceil(shown);
}
