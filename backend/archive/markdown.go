package archive

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// labels are the words of a Markdown export in one language.
type labels struct {
	you, assistant, plan, planWaiting, planApproved, steps, recommendations, sources string
	step, tool, why, pricing, link, alternatives, model, stopped, fail               string
	// page and slide are formats of a cited page's number, as the window
	// says them (guide.page, guide.slide): a presentation's are slides.
	page, slide        string
	exported, untitled string
	// A conversation named after its files, as the window's list and
	// header name it (frontend sessions/title.ts): two files, and the
	// first with how many more.
	filesTwo, filesMore string
	// The conversation's own settings, and the answers kept behind a
	// regenerated one: answer is a format of the answer's place and the
	// number of answers.
	systemPrompt, temperature, context, otherAnswers, answer string
	// What became of a plan or a tool call that no longer waits, said in
	// place of the question it asked, as the window does (chat/lines.ts);
	// decided is keyed by the decision, "" for a plan nobody decided.
	decided     map[api.ApprovalAction]string
	toolDecided string
}

var languages = map[string]labels{
	"en": {you: "You", assistant: "Wayfinder", plan: "Plan", planWaiting: "Plan (waiting for a decision when exported)", planApproved: "Approved plan",
		steps: "Approved steps", recommendations: "Recommendations", sources: "Sources", step: "Step", tool: "Tool",
		why: "Why", pricing: "Pricing", link: "Link", alternatives: "Alternatives", page: "p. %d", slide: "slide %d", model: "model",
		stopped: "The reply was stopped here.", fail: "The reply failed", exported: "Exported from Wayfinder on", untitled: "Untitled conversation",
		filesTwo: "%s and %s", filesMore: "%s and %d more",
		systemPrompt: "System prompt", temperature: "temperature", context: "context %d tokens", otherAnswers: "Other answers", answer: "answer %d of %d",
		decided: map[api.ApprovalAction]string{api.ActionApprove: "You approved this plan.", api.ActionRevise: "You asked for a new plan instead of this one.",
			api.ActionCancel: "You cancelled this plan.", "": "A plan was proposed here."},
		toolDecided: "You decided on this %s call."},
	"ko": {you: "나", assistant: "Wayfinder", plan: "계획", planWaiting: "계획 (내보낼 때 결정을 기다리던 중)", planApproved: "승인한 계획",
		steps: "승인한 단계", recommendations: "추천", sources: "출처", step: "단계", tool: "도구",
		why: "이유", pricing: "가격", link: "링크", alternatives: "대안", page: "%d쪽", slide: "슬라이드 %d", model: "모델",
		stopped: "답변이 여기서 중단되었습니다.", fail: "답변 실패", exported: "Wayfinder에서 내보낸 날짜:", untitled: "제목 없는 대화",
		filesTwo: "%s, %s", filesMore: "%s 외 %d개",
		systemPrompt: "시스템 프롬프트", temperature: "온도", context: "컨텍스트 %d 토큰", otherAnswers: "다른 답변", answer: "답변 %d/%d",
		decided: map[api.ApprovalAction]string{api.ActionApprove: "이 계획을 승인했습니다.", api.ActionRevise: "이 계획 대신 새 계획을 요청했습니다.",
			api.ActionCancel: "이 계획을 취소했습니다.", "": "여기서 계획을 제안했습니다."},
		toolDecided: "이 %s 도구 호출을 결정했습니다."},
}

// filesTitle names a conversation after its files: "a.pdf", "a.pdf and
// b.md", "a.pdf and 2 more"; "" for none.
func (l labels) filesTitle(files []string) string {
	switch len(files) {
	case 0:
		return ""
	case 1:
		return files[0]
	case 2:
		return fmt.Sprintf(l.filesTwo, files[0], files[1])
	}
	return fmt.Sprintf(l.filesMore, files[0], len(files)-1)
}

// FilesTitle is the title of a conversation named after its files in
// lang ("ko" or "en"; others are English), as the Markdown heads it.
func FilesTitle(files []string, lang string) string {
	l, ok := languages[lang]
	if !ok {
		l = languages["en"]
	}
	return l.filesTitle(files)
}

// MarkdownWriter writes conversations as Markdown for people to read: each
// conversation a top-level heading, each message a section with who wrote
// it and when, the plans, recommendations and the sources each reply
// cites, numbered as its [n] markers. It is not read back (the JSON is).
type MarkdownWriter struct {
	w     io.Writer
	l     labels
	loc   *time.Location
	n     int
	err   error
	date  time.Time
	lang  string
	lines LineFunc
}

// LineFunc words a line Wayfinder wrote itself (api.TurnResult.TextKey)
// in lang from its key and args; ok is false for a key it does not know.
// It comes from the caller (the agent's Line) so that this package does
// not depend on the agent.
type LineFunc func(key string, args map[string]string, lang string) (line string, ok bool)

// WithLines has the export word Wayfinder's own lines in its language
// through f: a plan's introduction stored in Korean reads in English in an
// English export. Without it (or for a key f does not know) the stored
// text is written, as it is for the model's words.
func (mw *MarkdownWriter) WithLines(f LineFunc) *MarkdownWriter {
	mw.lines = f
	return mw
}

// NewMarkdownWriter writes in lang ("ko" or "en"; others are English),
// with times in loc, and says it was exported on date.
func NewMarkdownWriter(w io.Writer, lang string, loc *time.Location, date time.Time) *MarkdownWriter {
	l, ok := languages[lang]
	if !ok {
		l, lang = languages["en"], "en"
	}
	return &MarkdownWriter{w: w, l: l, loc: loc, date: date, lang: lang}
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
		title = mw.l.filesTitle(c.Files)
	}
	if title == "" {
		title = mw.l.untitled
	}
	fmt.Fprintf(&b, "# %s\n\n", oneLine(title))
	meta := []string{mw.when(c.CreatedAt)}
	if c.Model != "" {
		meta = append(meta, mw.l.model+" "+c.Model)
	}
	var prompt string
	if cs := c.Settings; cs != nil {
		if cs.Temperature != nil {
			meta = append(meta, mw.l.temperature+" "+strconv.FormatFloat(*cs.Temperature, 'g', -1, 64))
		}
		if cs.ContextTokens != nil {
			meta = append(meta, fmt.Sprintf(mw.l.context, *cs.ContextTokens))
		}
		if cs.SystemPrompt != nil {
			prompt = strings.TrimSpace(*cs.SystemPrompt)
		}
	}
	fmt.Fprintf(&b, "*%s*\n", strings.Join(meta, " · "))
	if prompt != "" {
		fmt.Fprintf(&b, "\n%s:\n\n%s\n", mw.l.systemPrompt, quote(prompt))
	}
	for i, m := range c.Messages {
		// A plan's reply stored before decisions closed it (store
		// markDecided) may still say it waits: only the conversation says
		// whether it does.
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

// message writes one message as a section; an answer with variants
// says which of them it is, and they follow it, oldest first, one level
// down, as the window's ‹ 1/2 › shows them.
func (mw *MarkdownWriter) message(b *strings.Builder, m Message, waiting bool) {
	who := mw.l.you
	if m.Role == api.RoleAssistant {
		who = mw.l.assistant
	}
	head := []string{who, mw.when(m.CreatedAt)}
	all := append(slices.Clone(m.Variants), m)
	sort.SliceStable(all, func(i, j int) bool { return all[i].CreatedAt.Before(all[j].CreatedAt) })
	if len(m.Variants) > 0 {
		at := slices.IndexFunc(all, func(v Message) bool { return v.ID == m.ID })
		head = append(head, fmt.Sprintf(mw.l.answer, at+1, len(all)))
	}
	fmt.Fprintf(b, "\n## %s\n", strings.Join(head, " · "))
	mw.body(b, m, waiting, 2)
	if len(m.Variants) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### %s\n", mw.l.otherAnswers)
	for i, v := range all {
		if v.ID == m.ID {
			continue
		}
		fmt.Fprintf(b, "\n#### %s · %s\n", capital(fmt.Sprintf(mw.l.answer, i+1, len(all))), mw.when(v.CreatedAt))
		mw.body(b, v, false, 4)
	}
}

// body writes a message's text, how it ended and what its result holds,
// under a heading of level depth: the text's own headings go below it.
func (mw *MarkdownWriter) body(b *strings.Builder, m Message, waiting bool, depth int) {
	sub := strings.Repeat("#", depth+1)
	if text := strings.TrimSpace(mw.text(m, waiting)); text != "" {
		b.WriteString("\n" + demoteBy(text, depth) + "\n")
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
		switch {
		case waiting:
			head = mw.l.planWaiting
		case r.Plan.Decided == api.ActionApprove:
			head = mw.l.planApproved // its steps as approved, edits included
		}
		fmt.Fprintf(b, "\n%s %s\n\n", sub, head)
		steps(b, r.Plan.SubTasks)
	}
	if len(r.Steps) > 0 {
		fmt.Fprintf(b, "\n%s %s\n\n", sub, mw.l.steps)
		steps(b, r.Steps)
	}
	if len(r.Recommendations) > 0 {
		fmt.Fprintf(b, "\n%s %s\n\n| %s | %s | %s | %s | %s |\n|---|---|---|---|---|\n", sub, mw.l.recommendations, mw.l.step, mw.l.tool, mw.l.why, mw.l.pricing, mw.l.link)
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
		fmt.Fprintf(b, "\n%s %s\n\n", sub, mw.l.sources)
		for i, s := range r.Sources {
			where := []string{}
			for _, p := range []string{oneLine(s.Title), oneLine(s.Source)} {
				if p != "" && (len(where) == 0 || where[0] != p) {
					where = append(where, p)
				}
			}
			if s.Page > 0 {
				format := mw.l.page
				if s.Unit == "slide" {
					format = mw.l.slide
				}
				where = append(where, fmt.Sprintf(format, s.Page))
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

// text is a message's words: Wayfinder's own line in the export's
// language — for a plan or tool call that no longer waits, what became of
// it rather than the question it asked — else as stored. Words the model
// wrote before the line (a reply offered again after a cut) stay.
func (mw *MarkdownWriter) text(m Message, waiting bool) string {
	r := m.Result
	if r == nil || m.Role != api.RoleAssistant {
		return m.Content
	}
	var line string
	ok := false
	switch {
	case r.Plan != nil && !waiting:
		line, ok = mw.l.decided[r.Plan.Decided]
		if !ok {
			line, ok = mw.l.decided[""], true
		}
	case r.ToolCall != nil && !waiting:
		line, ok = fmt.Sprintf(mw.l.toolDecided, r.ToolCall.Tool), true
	case r.TextKey != "" && mw.lines != nil:
		line, ok = mw.lines(r.TextKey, r.TextArgs, mw.lang)
	}
	said := r.Response
	if said == "" {
		said = m.Content
	}
	switch {
	case !ok:
		return m.Content
	case m.Content == "" || m.Content == said:
		return line
	case strings.HasSuffix(m.Content, said):
		return strings.TrimSuffix(m.Content, said) + line
	}
	return m.Content
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
func demote(text string) string { return demoteBy(text, 2) }

// demoteBy moves headings by levels down (to ###### at most).
func demoteBy(text string, by int) string {
	lines := strings.Split(text, "\n")
	inCode := false
	for i, l := range lines {
		switch {
		case fence.MatchString(l):
			inCode = !inCode
		case !inCode && heading.MatchString(l):
			t := strings.TrimLeft(l, " ")
			rest := strings.TrimLeft(t, "#")
			lines[i] = strings.Repeat("#", min(6, len(t)-len(rest)+by)) + rest
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

// quote sets text apart as a block quote, line by line.
func quote(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}

// capital starts a heading with a capital letter ("answer 1 of 2" follows
// a "·" in the line of the answer shown, and opens its own heading).
func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
