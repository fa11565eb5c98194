// What a conversation is called in the list, the header and dialogs. A
// conversation made by attaching files in a new chat has no title until
// its first message gives it one; meanwhile it is named after its files
// (Session.files), so that leaving it before writing does not leave a
// "New conversation" nobody can tell apart.
import type { Session } from "../api/gotypes.gen";
import { lang, t } from "../i18n/i18n.svelte";

/** filesTitle names a conversation after its files: "a.pdf", "a.pdf and b.md", "a.pdf and 2 more"; "" for none. */
export function filesTitle(files: readonly string[] | null | undefined): string {
  const [first, second] = files ?? [];
  if (!first) return "";
  if (!second) return first;
  if (files!.length === 2) return t("sessions.filesTwo", { first, second });
  return t("sessions.filesMore", { first, count: files!.length - 1 });
}

/** sessionTitle is a conversation's title, else its files', else "New conversation". */
export function sessionTitle(s: Pick<Session, "title" | "files"> | null | undefined): string {
  return s?.title || filesTitle(s?.files) || t("sessions.untitled");
}

/** namedByFiles says whether the conversation is named after its files. */
export function namedByFiles(s: Pick<Session, "title" | "files">): boolean {
  return !s.title && !!s.files?.length;
}

/**
 * when is how the list dates a conversation: the time for today's ("오후
 * 7:42"), else the day ("Nov 3"), in the UI's language. The sidebar and
 * the Ctrl+K palette say it alike, so two conversations with one title
 * are told apart in both.
 */
export function when(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const locale = lang() === "ko" ? "ko-KR" : "en-US";
  return d.toDateString() === now.toDateString()
    ? d.toLocaleTimeString(locale, { hour: "numeric", minute: "2-digit" })
    : d.toLocaleDateString(locale, { month: "short", day: "numeric" });
}
