// How a search hit was found, in words a person reads more easily than a
// fused score: by shared words (keywords), by similar meaning (vectors), or
// both.
import type { SearchHit } from "../api/gotypes.gen";
import { t } from "../i18n/i18n.svelte";

export function matchLabel(h: Pick<SearchHit, "words" | "meaning">): string {
  if (h.words && h.meaning) return t("knowledge.matchBoth");
  if (h.meaning) return t("knowledge.matchMeaning");
  return t("knowledge.matchWords");
}
