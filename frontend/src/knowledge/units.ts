// A document's numbered parts are pages, or slides for a presentation
// (the backend's `unit`: "page" | "slide"; missing on a source saved
// before units were kept, which is a page). Every place that shows a page
// number or count to the person words it through these, so a slide is
// never called a page.
import { formatNumber, t } from "../i18n/i18n.svelte";

/** isSlides says whether a unit counts slides. */
export function isSlides(unit: string | undefined): boolean {
  return unit === "slide";
}

/** pageLabel names one page or slide: "page 3", "slide 3" ("3쪽", "슬라이드 3"). */
export function pageLabel(page: number, unit: string | undefined): string {
  return t(isSlides(unit) ? "guide.slide" : "guide.page", { page });
}

/** pageShort names one page or slide as an exported source list does: "p. 3", "slide 3". */
export function pageShort(page: number, unit: string | undefined): string {
  return t(isSlides(unit) ? "guide.slide" : "guide.pageShort", { page });
}

/** pageCount counts a document's pages or slides: "12 pages", "1 slide" ("12쪽", "슬라이드 12장"). */
export function pageCount(n: number, unit: string | undefined): string {
  return t(isSlides(unit) ? "knowledge.slideCount" : "knowledge.pageCount", { n: formatNumber(n) });
}
