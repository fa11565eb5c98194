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
};

/**
 * hitScrollTop is the scroll position that shows the hit below the label
 * stuck at the view's top: a hit that fits is centred in the rest of the
 * view, with what comes before and after it around it; a taller one starts
 * just under the label, so that its first line is read first rather than
 * its middle. Rounded down: a fraction of a pixel more puts the hit lower,
 * never under the label.
 */
export function hitScrollTop(p: Placement): number {
  const free = p.view - p.cover;
  const above = p.height <= free ? (free - p.height) / 2 : 0;
  return Math.floor(Math.max(0, Math.min(p.max, p.top - p.cover - above)));
}
