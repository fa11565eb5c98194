package settings

import (
	"errors"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// problem is one value refused: beside its field in the window (the
// FieldProblem, worded there in the person's language) and, in English,
// in the error's text (the command line and the log).
type problem struct {
	api.FieldProblem
	text string
}

func refuse(field, code, text string, kv ...string) problem {
	p := problem{FieldProblem: api.FieldProblem{Field: field, Code: code}, text: text}
	if len(kv) > 0 {
		p.Args = make(map[string]string, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			p.Args[kv[i]] = kv[i+1]
		}
	}
	return p
}

// Invalid is a settings document refused, with every value that must
// change; it is an ErrInvalid.
type Invalid struct{ problems []problem }

func (e *Invalid) Error() string {
	texts := make([]string, len(e.problems))
	for i, p := range e.problems {
		texts[i] = p.text
	}
	return strings.Join(texts, "; ")
}

func (e *Invalid) Unwrap() error { return ErrInvalid }

// Fields are the refused values, in the order of the form.
func (e *Invalid) Fields() []api.FieldProblem {
	out := make([]api.FieldProblem, len(e.problems))
	for i, p := range e.problems {
		out[i] = p.FieldProblem
	}
	return out
}

func invalid(problems []problem) error {
	if len(problems) == 0 {
		return nil
	}
	return &Invalid{problems: problems}
}

// Refusal is a refused settings document (a Save, or a conversation's
// own settings) as the person sees it: each value beside its field. A ZIM
// file alone keeps its own code (zim_*), whose hint says what to do with
// that file.
func Refusal(err error) *api.Error {
	var inv *Invalid
	if !errors.As(err, &inv) {
		return &api.Error{Info: api.ErrorInfo{Code: api.ErrSettingsInvalid, Message: err.Error()}, Err: err}
	}
	fields := inv.Fields()
	info := api.ErrorInfo{Code: api.ErrSettingsInvalid, Message: err.Error(), Fields: fields}
	if len(fields) == 1 && strings.HasPrefix(fields[0].Code, "zim_") {
		info.Code = api.ErrorCode(fields[0].Code)
	}
	return &api.Error{Info: info, Err: err}
}
