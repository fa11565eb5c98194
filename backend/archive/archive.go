// Package archive is Wayfinder's conversation export: a versioned JSON
// document that holds conversations without losing anything and reads back
// into a data folder (Write, Read), and a Markdown rendering of the same
// conversations for people to read (Markdown).
//
// An archive is read as a stream, one conversation at a time, each within
// a byte budget, so a file of any size — or one made to hurt — costs
// bounded memory; everything in it is checked before anything is stored
// (Check), and a problem is reported with the conversation and message it
// is in.
package archive

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/settings"
)

// Format names the document; Version is the one this build writes. A
// reader takes every version up to its own.
// Version 2 added the answers kept behind a regenerated one (Variants)
// and the person's decisions on plans and tool calls (Decision): a reader
// of version 1 would drop them without a word, so it refuses version 2.
const (
	Format  = "wayfinder.conversations"
	Version = 2
)

// Conversation is one conversation as exported: the session and its
// messages, in order.
type Conversation struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// PendingApproval: the last reply proposed a plan that waited for the
	// person's decision when it was exported.
	PendingApproval bool `json:"pending_approval,omitempty"`
	// Model is the chat model picked for the conversation; "" follows the
	// default chat model.
	Model string `json:"model,omitempty"`
	// Settings are the conversation's own (a system prompt, temperature,
	// context size over the global ones).
	Settings *api.ConversationSettings `json:"settings,omitempty"`
	Messages []Message                 `json:"messages"`
	// Files are the names of the conversation's attached files when no
	// message has titled it (api.Session.Files): the Markdown is titled
	// after them, as the window names it. They are not part of the JSON,
	// which holds what the database does (the files live in the uploads
	// folder and are not exported).
	Files []string `json:"-"`
}

// Message is one message as exported: all of api.Message but the session
// id, which the conversation gives.
type Message struct {
	ID      string            `json:"id"`
	Role    api.Role          `json:"role"`
	Content string            `json:"content"`
	Status  api.MessageStatus `json:"status"`
	Error   *api.ErrorInfo    `json:"error,omitempty"`
	Result  *api.TurnResult   `json:"result,omitempty"`
	// Decision is what the person decided on a plan or a tool call, on
	// the message that answered it (edits and the plan's version kept).
	Decision  *api.ApprovalDecision `json:"decision,omitempty"`
	CreatedAt time.Time             `json:"created_at"`
	// Variants are the earlier answers kept behind this one when the
	// person asked for another (‹ 1/2 ›), oldest first; they have none of
	// their own.
	Variants []Message `json:"variants,omitempty"`
}

// FromAPI makes the exported form of a session and its messages.
func FromAPI(s api.Session, msgs []api.Message) Conversation {
	c := Conversation{ID: s.ID, Title: s.Title, CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC(),
		PendingApproval: s.PendingApproval, Model: s.Model, Settings: s.Settings, Messages: make([]Message, len(msgs)), Files: s.Files}
	for i, m := range msgs {
		c.Messages[i] = fromAPIMessage(m)
	}
	return c
}

func fromAPIMessage(m api.Message) Message {
	out := Message{ID: m.ID, Role: m.Role, Content: m.Content, Status: m.Status, Error: m.Error, Result: m.Result,
		Decision: m.Decision, CreatedAt: m.CreatedAt.UTC()}
	for _, v := range m.Variants {
		out.Variants = append(out.Variants, fromAPIMessage(v))
	}
	return out
}

// Session is the conversation's session, as the store takes it.
func (c Conversation) Session() api.Session {
	return api.Session{ID: c.ID, Title: c.Title, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
		PendingApproval: c.PendingApproval, Model: c.Model, Settings: c.Settings, MessageCount: len(c.Messages)}
}

// APIMessages are the conversation's messages, as the store takes them.
func (c Conversation) APIMessages() []api.Message {
	out := make([]api.Message, len(c.Messages))
	for i, m := range c.Messages {
		out[i] = m.apiMessage(c.ID)
	}
	return out
}

func (m Message) apiMessage(sessionID string) api.Message {
	out := api.Message{ID: m.ID, SessionID: sessionID, Role: m.Role, Content: m.Content, Status: m.Status,
		Error: m.Error, Result: m.Result, Decision: m.Decision, CreatedAt: m.CreatedAt}
	for _, v := range m.Variants {
		out.Variants = append(out.Variants, v.apiMessage(sessionID))
	}
	return out
}

// Writer writes an archive one conversation at a time, so that exporting
// every conversation never holds them all. The output is the same for the
// same conversations (no export time is written), which is what makes an
// export, imported and exported again, come out byte for byte the same.
type Writer struct {
	w   io.Writer
	n   int
	err error
}

// NewWriter starts an archive on w.
func NewWriter(w io.Writer) *Writer {
	aw := &Writer{w: w}
	_, aw.err = fmt.Fprintf(w, "{\n  \"format\": %q,\n  \"version\": %d,\n  \"conversations\": [", Format, Version)
	return aw
}

// Add writes one conversation.
func (aw *Writer) Add(c Conversation) error {
	if aw.err != nil {
		return aw.err
	}
	b, err := json.MarshalIndent(c, "    ", "  ")
	if err != nil {
		aw.err = fmt.Errorf("encode conversation %s: %w", c.ID, err)
		return aw.err
	}
	sep := ",\n    "
	if aw.n == 0 {
		sep = "\n    "
	}
	aw.n++
	if _, err := io.WriteString(aw.w, sep); err != nil {
		aw.err = err
		return err
	}
	_, aw.err = aw.w.Write(b)
	return aw.err
}

// Close ends the document.
func (aw *Writer) Close() error {
	if aw.err != nil {
		return aw.err
	}
	end := "\n  ]\n}\n"
	if aw.n == 0 {
		end = "]\n}\n"
	}
	_, aw.err = io.WriteString(aw.w, end)
	return aw.err
}

// Limits bound what one archive may hold. The budget per conversation is
// what bounds memory: a conversation is decoded whole, and the decoder
// never buffers more than the budget before failing.
type Limits struct {
	ConversationBytes int64 // the JSON of one conversation
	Messages          int   // messages of one conversation
	MessageRunes      int   // characters of one message
	TitleRunes        int
}

// DefaultLimits are far above what the app writes: a reply is rarely
// 100 kB, a conversation of a thousand turns a few MB.
var DefaultLimits = Limits{ConversationBytes: 64 << 20, Messages: 20_000, MessageRunes: 2_000_000, TitleRunes: 1_000}

// ErrNotArchive: the file is not a Wayfinder conversation export.
var ErrNotArchive = errors.New("not a Wayfinder conversation export")

// ErrInvalid: the file is an export, but one the app cannot take as it is.
var ErrInvalid = errors.New("the conversation export cannot be imported")

// Problem is why a file cannot be imported, as a case the app words in
// the person's language (Case, with its particulars in Args; "reason"
// holds the raw words of Go's JSON decoder or of Check, for a bug report
// only), besides the English sentence Error gives. errors.Is finds its
// kind (ErrNotArchive or ErrInvalid) and what it wraps.
type Problem struct {
	Kind error
	Case string
	Args map[string]string
	err  error // the English particulars, after the kind
}

func (p *Problem) Error() string   { return p.Kind.Error() + ": " + p.err.Error() }
func (p *Problem) Unwrap() []error { return []error{p.Kind, p.err} }

// problem makes a Problem of kind and case c; args are its particulars in
// pairs (name, value), and format and a are its English words.
func problem(kind error, c string, args []string, format string, a ...any) *Problem {
	p := &Problem{Kind: kind, Case: c, Args: map[string]string{}, err: fmt.Errorf(format, a...)}
	for i := 0; i+1 < len(args); i += 2 {
		p.Args[args[i]] = args[i+1]
	}
	return p
}

// Read decodes an archive from r, calling fn with each conversation in
// order after checking it (Check); fn's error stops the reading. It
// returns the number of conversations. The format and version are checked
// when they are read: an archive whose header comes after its
// conversations (edited by hand) is only checked at the end, so a caller
// that stores as it reads should read the file once without storing first
// (Import does).
func Read(r io.Reader, lim Limits, fn func(Conversation) error) (int, error) {
	br := &budgetReader{r: r, left: lim.ConversationBytes}
	dec := json.NewDecoder(br)
	var (
		n             int
		format        string
		version       int
		seenF, seenV  bool
		conversations bool
		ids           = map[string]string{} // message id -> conversation, across the file
	)
	fail := func(err error) (int, error) {
		if errors.Is(err, errBudget) {
			return n, problem(ErrInvalid, "too_large", []string{"n", strconv.Itoa(n + 1), "mb", strconv.FormatInt(lim.ConversationBytes>>20, 10)},
				"conversation %d is larger than %d MB", n+1, lim.ConversationBytes>>20)
		}
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return n, problem(ErrInvalid, "json_broken", append([]string{"byte", strconv.FormatInt(se.Offset, 10)}, syntaxCheck(se)...),
				"the JSON is broken at byte %d: %v", se.Offset, se)
		case errors.Is(err, ErrInvalid), errors.Is(err, ErrNotArchive):
			return n, err
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			return n, problem(ErrInvalid, "cut_short", nil, "the file ends too soon (cut short?): unexpected EOF")
		}
		return n, problem(ErrInvalid, "unreadable", []string{"reason", err.Error()}, "%v", err)
	}
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return 0, problem(ErrNotArchive, "empty", nil, "the file is empty")
		}
		return 0, problem(ErrNotArchive, "not_json", nil, "it is not JSON")
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return 0, problem(ErrNotArchive, "not_object", nil, "it is not a JSON object")
	}
	header := func() error {
		switch {
		case !seenF || format == "":
			return problem(ErrNotArchive, "no_format", nil, "its \"format\" is %q, not %q", format, Format)
		case format != Format:
			return problem(ErrNotArchive, "format", []string{"format", format}, "its \"format\" is %q, not %q", format, Format)
		case !seenV || version < 1:
			return problem(ErrNotArchive, "no_version", nil, "it has no valid \"version\"")
		case version > Version:
			return problem(ErrInvalid, "newer", []string{"version", strconv.Itoa(version), "max", strconv.Itoa(Version)},
				"it was made by a newer Wayfinder (format version %d; this one reads up to %d): update Wayfinder", version, Version)
		}
		return nil
	}
	for dec.More() {
		br.left = lim.ConversationBytes
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		key, _ := tok.(string)
		switch key {
		case "format":
			seenF = true
			if err := dec.Decode(&format); err != nil {
				return fail(problem(ErrNotArchive, "format_not_text", nil, "\"format\" is not a string"))
			}
			if format != Format {
				return n, header()
			}
		case "version":
			seenV = true
			if err := dec.Decode(&version); err != nil {
				return fail(problem(ErrNotArchive, "version_not_number", nil, "\"version\" is not a whole number"))
			}
			if seenF {
				if err := header(); err != nil {
					return n, err
				}
			}
		case "conversations":
			conversations = true
			if tok, err := dec.Token(); err != nil {
				return fail(err)
			} else if d, ok := tok.(json.Delim); !ok || d != '[' {
				return n, problem(ErrInvalid, "not_list", nil, "\"conversations\" is not a list")
			}
			for dec.More() {
				br.left = lim.ConversationBytes
				var c Conversation
				if err := dec.Decode(&c); err != nil {
					var te *json.UnmarshalTypeError
					var se *json.SyntaxError
					switch {
					case errors.As(err, &te):
						// In words a person who edits the file knows: JSON's
						// kinds, not Go's types ("[]archive.Message").
						if te.Field == "" {
							return n, problem(ErrInvalid, "conversation_type", []string{"n", strconv.Itoa(n + 1), "got", te.Value},
								"conversation %d is a JSON %s, not an object", n+1, te.Value)
						}
						return n, problem(ErrInvalid, "field_type", []string{"n", strconv.Itoa(n + 1), "field", te.Field, "want", jsonKind(te.Type), "got", te.Value},
							"conversation %d: %q should be a JSON %s, not a %s", n+1, te.Field, jsonKind(te.Type), te.Value)
					case errors.As(err, &se), errors.Is(err, errBudget), errors.Is(err, io.ErrUnexpectedEOF):
						return fail(err)
					}
					why := []string{"reason", err.Error()}
					// A time not in RFC 3339 is said in words, with the value.
					if pe := (*time.ParseError)(nil); errors.As(err, &pe) {
						why = []string{"check", "time", "value", strconv.Quote(cut(pe.Value, 64))}
					}
					return n, problem(ErrInvalid, "conversation_unreadable", append([]string{"n", strconv.Itoa(n + 1)}, why...),
						"conversation %d: %v", n+1, err)
				}
				if err := Check(&c, lim, ids); err != nil {
					return n, checkProblem(n+1, c.ID, err)
				}
				n++
				if err := fn(c); err != nil {
					return n, err
				}
			}
			if _, err := dec.Token(); err != nil { // ]
				return fail(err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return fail(err)
			}
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return fail(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return n, problem(ErrInvalid, "trailing", nil, "there is more after the end of the export")
	}
	if err := header(); err != nil {
		return n, err
	}
	if !conversations {
		return n, problem(ErrNotArchive, "no_conversations", nil, "it has no \"conversations\"")
	}
	return n, nil
}

// invalidChar finds the character Go's JSON scanner did not expect, as it
// quotes it ('x', '\”, '"').
var invalidChar = regexp.MustCompile(`^invalid character ('(?:\\'|[^']+)') `)

// syntaxCheck is broken JSON said in parts the app words (check "char",
// the character that cannot come there; "depth", nested too deeply), or
// the scanner's English as the reason when it is none of them.
func syntaxCheck(se *json.SyntaxError) []string {
	if strings.HasSuffix(se.Error(), "exceeded max depth") {
		return []string{"check", "depth"}
	}
	if m := invalidChar.FindStringSubmatch(se.Error()); m != nil {
		return []string{"check", "char", "char", m[1]}
	}
	return []string{"reason", se.Error()}
}

// cut is s at most n characters long, "…" after it when cut.
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// errSettings: a conversation's own settings are out of range (Check).
var errSettings = errors.New("its settings")

// CheckError is why Check refused a conversation, as a check the app words
// in the person's language (Check, its particulars in Args: msg and
// variant say which message, or which other answer of it), besides the
// English words Error gives.
type CheckError struct {
	Check string
	Args  map[string]string
	err   error
}

func (e *CheckError) Error() string { return e.err.Error() }
func (e *CheckError) Unwrap() error { return e.err }

// refuse makes a CheckError: args in pairs (name, value), format and a its
// English words.
func refuse(check string, args []string, format string, a ...any) *CheckError {
	e := &CheckError{Check: check, Args: map[string]string{}, err: fmt.Errorf(format, a...)}
	for i := 0; i+1 < len(args); i += 2 {
		e.Args[args[i]] = args[i+1]
	}
	return e
}

// checkProblem is conversation n refused by Check: the case settings (a
// value out of range) or conversation_check, with the check and its
// particulars as Args, so the window and the command line word all of it;
// Check's English words are the Problem's English only, where they were
// also its "reason", shown in English under the worded sentence.
func checkProblem(n int, id string, err error) *Problem {
	id = cut(id, 64) // a refused id may be as long as the file
	kase := "conversation_check"
	if errors.Is(err, errSettings) {
		kase = "settings"
	}
	p := problem(ErrInvalid, kase, []string{"n", strconv.Itoa(n), "id", id}, "conversation %d (%s): %w", n, id, err)
	var ce *CheckError
	if errors.As(err, &ce) {
		for k, v := range ce.Args {
			p.Args[k] = v
		}
		p.Args["check"] = ce.Check
	} else {
		p.Args["reason"] = err.Error()
	}
	return p
}

// at is where a message is, as Args: msg, and variant for an answer kept
// behind it (0: the message itself).
func at(msg, variant int) []string {
	if variant == 0 {
		return []string{"msg", strconv.Itoa(msg)}
	}
	return []string{"msg", strconv.Itoa(msg), "variant", strconv.Itoa(variant)}
}

// with is args followed by more pairs.
func with(args []string, more ...string) []string {
	return append(append([]string(nil), args...), more...)
}

// jsonKind is the kind of JSON value a Go type is decoded from, the word
// a person who edits the file knows ("a list", not "[]archive.Message").
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return t.String()
}

// errBudget stops a decoder that read more than a conversation may hold.
var errBudget = errors.New("over budget")

// budgetReader fails once more than left bytes have been read; the reader
// of the archive refills left before each conversation.
type budgetReader struct {
	r    io.Reader
	left int64
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errBudget
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// Check makes sure a conversation can be stored as it is and shown as it
// was: ids (unique across the file: seen maps message ids to their
// conversation), roles, statuses, times, sizes, and messages in the order
// of their ids (the order the store lists them in). A reply that was still
// being written when it was exported becomes interrupted, as it does when
// the app stops mid-reply.
func Check(c *Conversation, lim Limits, seen map[string]string) error {
	if code, err := checkID(c.ID); err != nil {
		return refuse(code, nil, "its id: %w", err)
	}
	if n := len([]rune(c.Title)); n > lim.TitleRunes {
		return refuse("title_long", []string{"length", strconv.Itoa(n), "limit", strconv.Itoa(lim.TitleRunes)},
			"the title is %d characters long; the limit is %d", n, lim.TitleRunes)
	}
	if c.CreatedAt.IsZero() || c.UpdatedAt.IsZero() {
		return refuse("no_times", nil, "created_at and updated_at are required")
	}
	if len(c.Messages) > lim.Messages {
		return refuse("too_many", []string{"count", strconv.Itoa(len(c.Messages)), "limit", strconv.Itoa(lim.Messages)},
			"it has %d messages; the limit is %d", len(c.Messages), lim.Messages)
	}
	if c.Settings != nil {
		if _, err := settings.ValidateConversation(*c.Settings); err != nil {
			return settingsError(err)
		}
	}
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	total := len(c.Messages)
	for i := range c.Messages {
		m := &c.Messages[i]
		where := fmt.Sprintf("message %d", i+1)
		if err := checkMessage(m, where, at(i+1, 0), c.ID, lim, seen); err != nil {
			return err
		}
		if i > 0 && m.ID <= c.Messages[i-1].ID {
			return refuse("order", at(i+1, 0), "%s: the messages are not in the order of their ids", where)
		}
		if len(m.Variants) > 0 && m.Role != api.RoleAssistant {
			return refuse("variants_of_question", at(i+1, 0), "%s: only an answer has other answers (variants)", where)
		}
		if total += len(m.Variants); total > lim.Messages {
			return refuse("too_many_answers", []string{"count", strconv.Itoa(total), "limit", strconv.Itoa(lim.Messages)},
				"it has %d messages with the other answers; the limit is %d", total, lim.Messages)
		}
		for j := range m.Variants {
			v := &m.Variants[j]
			vwhere := fmt.Sprintf("%s, other answer %d", where, j+1)
			if err := checkMessage(v, vwhere, at(i+1, j+1), c.ID, lim, seen); err != nil {
				return err
			}
			switch {
			case v.Role != api.RoleAssistant:
				return refuse("variant_role", with(at(i+1, j+1), "role", strconv.Quote(string(v.Role))), "%s: role %q is not assistant", vwhere, v.Role)
			case len(v.Variants) > 0:
				return refuse("variant_variants", at(i+1, j+1), "%s: an other answer has no other answers of its own", vwhere)
			case j > 0 && v.CreatedAt.Before(m.Variants[j-1].CreatedAt):
				return refuse("variant_order", at(i+1, 0), "%s: the other answers are not oldest first", vwhere)
			}
		}
	}
	return nil
}

// settingsError is a conversation's settings refused, by the first value
// out of range (its code in package settings: temperature, context,
// prompt_too_long, and its bounds); the English names them all.
func settingsError(err error) error {
	text := fmt.Errorf("%w: %s", errSettings, strings.TrimPrefix(err.Error(), settings.ErrInvalid.Error()+": "))
	var inv *settings.Invalid
	if !errors.As(err, &inv) || len(inv.Fields()) == 0 {
		return text
	}
	f := inv.Fields()[0]
	ce := &CheckError{Check: f.Code, Args: map[string]string{}, err: text}
	for k, v := range f.Args {
		if k == "n" { // the prompt's length, not the conversation's number
			k = "length"
		}
		ce.Args[k] = v
	}
	return ce
}

// checkMessage checks one message (or an answer kept as a variant), where
// names it in an error and pos in its Args.
func checkMessage(m *Message, where string, pos []string, conv string, lim Limits, seen map[string]string) error {
	if code, err := checkID(m.ID); err != nil {
		return refuse("message_"+code, pos, "%s: its id: %w", where, err)
	}
	if other, dup := seen[m.ID]; dup {
		return refuse("id_taken", with(pos, "message_id", m.ID, "other", other), "%s: its id %s is also a message of conversation %s", where, m.ID, other)
	}
	seen[m.ID] = conv
	if m.Role != api.RoleUser && m.Role != api.RoleAssistant {
		return refuse("role", with(pos, "role", strconv.Quote(string(m.Role))), "%s: role %q is not user or assistant", where, m.Role)
	}
	switch m.Status {
	case api.StatusComplete, api.StatusInterrupted, api.StatusError, api.StatusAwaitingApproval:
	case api.StatusStreaming:
		m.Status = api.StatusInterrupted
	default:
		return refuse("status", with(pos, "status", strconv.Quote(string(m.Status))), "%s: status %q is not one Wayfinder knows", where, m.Status)
	}
	if m.CreatedAt.IsZero() {
		return refuse("no_time", pos, "%s: created_at is required", where)
	}
	m.CreatedAt = m.CreatedAt.UTC()
	if n := len([]rune(m.Content)); n > lim.MessageRunes {
		return refuse("message_long", with(pos, "length", strconv.Itoa(n), "limit", strconv.Itoa(lim.MessageRunes)),
			"%s is %d characters long; the limit is %d", where, n, lim.MessageRunes)
	}
	return nil
}

// checkID accepts the ids Wayfinder makes (UUIDs) and other short plain
// ones; an id goes into file names and URLs nowhere, but stays printable.
func checkID(id string) (code string, err error) {
	if id == "" || len(id) > 64 {
		return "id_length", fmt.Errorf("%q must be 1 to 64 characters", id)
	}
	if strings.IndexFunc(id, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r == ':')
	}) >= 0 {
		return "id_letters", fmt.Errorf("%q may hold only letters, digits and - _ . :", id)
	}
	return "", nil
}
