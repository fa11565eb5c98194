// Model output and document text are untrusted: they are rendered through
// marked and then DOMPurify with a strict allow-list, so no script, event
// handler, frame, form or javascript: URL survives, and links open safely.
import DOMPurify from "dompurify";
import { Marked } from "marked";

const marked = new Marked({ gfm: true, breaks: true, async: false });

const SAFE_URL = /^(?:https?:|mailto:|#)/i;

const ALLOWED_TAGS = [
  "a", "b", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4", "h5", "h6",
  "hr", "i", "li", "ol", "p", "pre", "s", "span", "strong", "sub", "sup", "table", "tbody",
  "td", "tfoot", "th", "thead", "tr", "ul", "input", "img",
];
const ALLOWED_ATTR = ["href", "title", "class", "align", "colspan", "rowspan", "type", "checked", "disabled", "src", "alt", "start"];

let purifier: ReturnType<typeof DOMPurify> | null = null;

function getPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  const p = DOMPurify(window);
  p.addHook("afterSanitizeAttributes", (node) => {
    const el = node as Element;
    const tag = el.tagName?.toLowerCase();
    if (tag === "a") {
      const href = el.getAttribute("href") ?? "";
      if (!SAFE_URL.test(href.trim())) el.removeAttribute("href");
      if (!href.startsWith("#")) {
        el.setAttribute("target", "_blank");
        el.setAttribute("rel", "noopener noreferrer nofollow");
      }
    }
    if (tag === "img") {
      // Remote images would leak that a reply was read (and the app is
      // offline-first); only inline data images are kept.
      const src = el.getAttribute("src") ?? "";
      if (!/^data:image\/(png|gif|jpe?g|webp);/i.test(src)) {
        el.replaceWith(document.createTextNode(el.getAttribute("alt") ?? ""));
      }
    }
    if (tag === "input") {
      // Only GFM task-list checkboxes, and never interactive.
      if (el.getAttribute("type") !== "checkbox") el.remove();
      else el.setAttribute("disabled", "");
    }
  });
  purifier = p;
  return p;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** sanitizeHtml cleans HTML that came from anywhere outside this app. */
export function sanitizeHtml(html: string): string {
  const p = getPurifier();
  // DOMPurify hands back its input untouched where it cannot run (e.g. an
  // incomplete DOM): fail closed and show the text instead.
  if (!p.isSupported) return escapeHtml(html);
  return p.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|#|data:image\/(?:png|gif|jpe?g|webp);)/i,
    RETURN_TRUSTED_TYPE: false,
  }) as string;
}

/** renderMarkdown turns untrusted Markdown into safe HTML. */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text ?? "") as string;
  return sanitizeHtml(html);
}
