package archive

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// labels are the words of a Markdown export in one language.
type labels struct {
	you, assistant, plan, planWaiting, steps, recommendations, sources       string
	step, tool, why, pricing, link, alternatives, page, model, stopped, fail string
	exported, untitled                                                       string
}

var languages = map[string]labels{
	"en": {you: "You", assistant: "Wayfinder", plan: "Plan", planWaiting: "Plan (waiting for a decision when exported)",
		steps: "Approved steps", recommendations: "Recommendations", sources: "Sources", step: "Step", tool: "Tool",
		why: "Why", pricing: "Pricing", link: "Link", alternatives: "Alternatives", page: "p.", model: "model",
		stopped: "The reply was stopped here.", fail: "The reply failed", exported: "Exported from Wayfinder on", untitled: "Untitled conversation"},
	"ko": {you: "나", assistant: "Wayfinder", plan: "계획", planWaiting: "계획 (내보낼 때 결정을 기다리던 중)",
		steps: "승인한 단계", recommendations: "추천", sources: "출처", step: "단계", tool: "도구",
		why: "이유", pricing: "가격", link: "링크", alternatives: "대안", page: "쪽", model: "모델",
		stopped: "답변이 여기서 중단되었습니다.", fail: "답변 실패", exported: "Wayfinder에서 내보낸 날짜:", untitled: "제목 없는 대화"},
}

// MarkdownWriter writes conversations as Markdown for people to read: each
// conversation a top-level heading, each message a section with who wrote
// it and when, the plans, recommendations and the sources each reply
// cites, numbered as its [n] markers. It is not read back (the JSON is).
type MarkdownWriter struct {
	w    io.Writer
	l    labels
	loc  *time.Location
	n    int
	err  error
	date time.Time
}

// NewMarkdownWriter writes in lang ("ko" or "en"; others are English),
// with times in loc, and says it was exported on date.
func NewMarkdownWriter(w io.Writer, lang string, loc *time.Location, date time.Time) *MarkdownWriter {
	l, ok := languages[lang]
	if !ok {
		l = languages["en"]
	}
	return &MarkdownWriter{w: w, l: l, loc: loc, date: date}
}

// Add writes one conversation.
func (mw *MarkdownWriter) Add(c Conversation) error {
	if mw.err != nil {
		return mw.err
	}
	var b strings.Builder
	if mw.n > 0 {
		b.WriteString("\n---\n\n")
	}
	mw.n++
	title := strings.TrimSpace(c.Title)
	if title == "" {
		title = mw.l.untitled
	}
	fmt.Fprintf(&b, "# %s\n\n", oneLine(title))
	meta := []string{mw.when(c.CreatedAt)}
	if c.Model != "" {
		meta = append(meta, mw.l.model+" "+c.Model)
	}
	fmt.Fprintf(&b, "*%s*\n", strings.Join(meta, " · "))
	for i, m := range c.Messages {
		// A plan's reply keeps its status after the decision: only the
		// conversation says whether it still waits.
		mw.message(&b, m, c.PendingApproval && i == len(c.Messages)-1)
	}
	_, mw.err = io.WriteString(mw.w, b.String())
	return mw.err
}

// Close ends the document with the export's date.
func (mw *MarkdownWriter) Close() error {
	if mw.err != nil {
		return mw.err
	}
	_, mw.err = fmt.Fprintf(mw.w, "\n---\n\n%s %s\n", mw.l.exported, mw.date.In(mw.loc).Format("2006-01-02"))
	return mw.err
}

func (mw *MarkdownWriter) when(t time.Time) string { return t.In(mw.loc).Format("2006-01-02 15:04") }

func (mw *MarkdownWriter) message(b *strings.Builder, m Message, waiting bool) {
	who := mw.l.you
	if m.Role == api.RoleAssistant {
		who = mw.l.assistant
	}
	fmt.Fprintf(b, "\n## %s · %s\n", who, mw.when(m.CreatedAt))
	if text := strings.TrimSpace(m.Content); text != "" {
		b.WriteString("\n" + demote(text) + "\n")
	}
	switch {
	case m.Status == api.StatusInterrupted:
		fmt.Fprintf(b, "\n*%s*\n", mw.l.stopped)
	case m.Status == api.StatusError && m.Error != nil:
		fmt.Fprintf(b, "\n*%s: %s*\n", mw.l.fail, oneLine(m.Error.Message))
	}
	r := m.Result
	if r == nil {
		return
	}
	if r.Plan != nil && len(r.Plan.SubTasks) > 0 {
		head := mw.l.plan
		if waiting {
			head = mw.l.planWaiting
		}
		fmt.Fprintf(b, "\n### %s\n\n", head)
		steps(b, r.Plan.SubTasks)
	}
	if len(r.Steps) > 0 {
		fmt.Fprintf(b, "\n### %s\n\n", mw.l.steps)
		steps(b, r.Steps)
	}
	if len(r.Recommendations) > 0 {
		fmt.Fprintf(b, "\n### %s\n\n| %s | %s | %s | %s | %s |\n|---|---|---|---|---|\n", mw.l.recommendations, mw.l.step, mw.l.tool, mw.l.why, mw.l.pricing, mw.l.link)
		for _, rec := range r.Recommendations {
			step := rec.SubTaskID
			for _, s := range r.Steps {
				if s.ID == rec.SubTaskID {
					step = s.Title
				}
			}
			tool := cell(rec.Tool)
			if len(rec.Alternatives) > 0 {
				tool += " (" + mw.l.alternatives + ": " + cell(strings.Join(rec.Alternatives, ", ")) + ")"
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", cell(step), tool, cell(rec.Why), dash(cell(rec.Pricing)), dash(link(rec.URL)))
		}
	}
	if len(r.Sources) > 0 {
		fmt.Fprintf(b, "\n### %s\n\n", mw.l.sources)
		for i, s := range r.Sources {
			where := []string{}
			for _, p := range []string{oneLine(s.Title), oneLine(s.Source)} {
				if p != "" && (len(where) == 0 || where[0] != p) {
					where = append(where, p)
				}
			}
			if s.Page > 0 {
				where = append(where, fmt.Sprintf("%s %d", mw.l.page, s.Page))
			}
			if s.Heading != "" {
				where = append(where, oneLine(s.Heading))
			}
			line := fmt.Sprintf("%d. %s", i+1, strings.Join(where, " · "))
			if s.URL != "" {
				line += " — " + link(s.URL)
			}
			b.WriteString(line + "\n")
			if snip := strings.TrimSpace(s.Snippet); snip != "" {
				for _, l := range strings.Split(snip, "\n") {
					b.WriteString("   > " + l + "\n")
				}
			}
		}
	}
}

func steps(b *strings.Builder, st []api.SubTask) {
	for i, s := range st {
		fmt.Fprintf(b, "%d. %s", i+1, oneLine(s.Title))
		if d := oneLine(s.Detail); d != "" {
			fmt.Fprintf(b, " — %s", d)
		}
		b.WriteString("\n")
	}
}

var (
	spaces  = regexp.MustCompile(`\s+`)
	heading = regexp.MustCompile(`^ {0,3}#{1,6}(\s|$)`)
	fence   = regexp.MustCompile("^ {0,3}(```|~~~)")
)

// demote moves a message's headings two levels down, below the
// conversation's (#) and the message's (##), leaving code blocks alone: a
// guide's "# Title" must not read as a new conversation.
func demote(text string) string {
	lines := strings.Split(text, "\n")
	inCode := false
	for i, l := range lines {
		switch {
		case fence.MatchString(l):
			inCode = !inCode
		case !inCode && heading.MatchString(l):
			t := strings.TrimLeft(l, " ")
			if strings.HasPrefix(t, "#####") {
				lines[i] = "######" + strings.TrimLeft(t, "#")
			} else {
				lines[i] = "##" + t
			}
		}
	}
	return strings.Join(lines, "\n")
}

// oneLine keeps text that belongs on one line (a title, a heading) there.
func oneLine(s string) string { return strings.TrimSpace(spaces.ReplaceAllString(s, " ")) }

// cell makes text safe inside a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }

// link writes an address as an autolink, which Markdown does not read
// further (a ")" or "*" in it stays as it is).
func link(u string) string {
	if u = oneLine(u); u == "" {
		return ""
	}
	return "<" + strings.NewReplacer("<", "%3C", ">", "%3E", " ", "%20").Replace(u) + ">"
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
