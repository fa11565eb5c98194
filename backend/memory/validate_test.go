package memory

import (
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// A refused memory sends its particulars (its length and the limit, the
// kind given) apart, for the window to word in the person's language.
func TestInvalidMemorySaysWhatInParts(t *testing.T) {
	long := strings.Repeat("가", MaxTextLen+1)
	for _, tt := range []struct {
		text string
		kind Kind
		code api.ErrorCode
		args map[string]string
	}{
		{" ", KindPreference, api.ErrMemoryEmpty, nil},
		{long, KindPreference, api.ErrMemoryTooLong, map[string]string{"n": strconv.Itoa(MaxTextLen + 1), "max": strconv.Itoa(MaxTextLen)}},
		{"likes tea", Kind("secret"), api.ErrMemoryKind, map[string]string{"kind": "secret"}},
	} {
		_, err := validate(tt.text, tt.kind)
		info, ok := api.AsError(err)
		if !ok || info.Code != tt.code || !maps.Equal(info.Args, tt.args) {
			t.Errorf("validate(%.10q, %q) = %+v, want %s %v", tt.text, tt.kind, info, tt.code, tt.args)
		}
	}
}
