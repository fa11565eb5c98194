// Korean particles after a name known only at run time. The catalogue
// writes both forms after a placeholder ("{title}을(를)"); format picks the
// one the value needs. The same rule as backend/app/particle.go.

/** The forms after a final consonant and after a vowel; (으)로 also takes
 * the second after ㄹ. "(이)" is the copula: "(이)라는". */
const PARTICLES: Record<string, [string, string]> = {
  "을(를)": ["을", "를"],
  "이(가)": ["이", "가"],
  "은(는)": ["은", "는"],
  "와(과)": ["과", "와"],
  "과(와)": ["과", "와"],
  "(으)로": ["으로", "로"],
  "으로(로)": ["으로", "로"],
  "(이)": ["이", ""],
};

/** The closing marks and particle forms format looks for after a
 * placeholder, as one regular expression's source. */
export const PARTICLE_AFTER = `([”’"')\\]」』]*)(${Object.keys(PARTICLES)
  .map((p) => p.replace(/[()]/g, "\\$&"))
  .join("|")})?`;

/**
 * particle is the Korean particle to write after word in place of form:
 * the one that fits how word ends when read aloud, or form itself when
 * that is not known, which reads right either way. Digits count as read in
 * Korean (1 일, 2 이; a final 0 is 십, 백, 천 or 영); Latin letters only
 * where the end of a word is read one way (l, m, n end in a consonant;
 * a, d, s, x … do not; b, c, e, k, p, r, t are not known: "web" 웹 but
 * "b" 비, "file" 파일 but "e" 이).
 */
export function particle(word: string, form: string): string {
  const pair = PARTICLES[form];
  if (!pair) return form;
  const sound = lastSound(word);
  if (!sound) return form;
  if (pair[1].endsWith("로") && sound.rieul) return pair[1];
  return sound.final ? pair[0] : pair[1];
}

function lastSound(word: string): { final: boolean; rieul: boolean } | undefined {
  const w = [...word.replace(/[^\p{L}\p{N}]+$/u, "")];
  const last = w.at(-1)?.toLowerCase();
  if (!last) return undefined;
  const c = last.codePointAt(0)!;
  if (c >= 0xac00 && c <= 0xd7a3) {
    const jong = (c - 0xac00) % 28;
    return { final: jong !== 0, rieul: jong === 8 };
  }
  if (/[0-9]/.test(last)) return { final: "013678".includes(last), rieul: "178".includes(last) };
  if (last === "l") return { final: true, rieul: true };
  if (last === "m" || last === "n") return { final: true, rieul: false };
  if (last === "g" && w.at(-2)?.toLowerCase() === "n") return undefined; // "ping" 핑, "png" 피엔지
  if ("adfghijoqsuvwxyz".includes(last)) return { final: false, rieul: false };
  return undefined;
}
