package tools

import (
	"context"
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // IANA zones must resolve on machines without a zoneinfo database (Windows)

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Clock returns the current time; tests inject a fixed one.
type Clock func() time.Time

var weekdayKO = [...]string{"일요일", "월요일", "화요일", "수요일", "목요일", "금요일", "토요일"}

// NewGetTime is the get_time tool. defaultZone is used when the model names
// no zone (e.g. the person's configured zone, "Asia/Seoul"); empty or
// invalid means the computer's local zone.
func NewGetTime(now Clock, defaultZone string) *Tool {
	if now == nil {
		now = time.Now
	}
	def := time.Local
	if loc, err := time.LoadLocation(defaultZone); err == nil && defaultZone != "" {
		def = loc
	}
	return &Tool{
		Name:        "get_time",
		Description: "Get the current date and time, optionally in another time zone. Use it for questions about today, now, dates or deadlines.",
		Params: []Param{
			{Name: "timezone", Type: TypeString, Description: "IANA time zone name such as Asia/Seoul, Europe/London or America/New_York; omit for the person's own zone"},
			{Name: "lang", Type: TypeString, Enum: []string{"ko", "en"}, Description: "language of the answer: ko or en (default en)"},
		},
		Timeout: time.Second,
		Run: func(ctx context.Context, args Args) (Result, error) {
			loc := def
			if name := args.String("timezone"); name != "" {
				l, err := loadZone(name)
				if err != nil {
					return Result{}, err
				}
				loc = l
			}
			at := now().In(loc)
			return Result{Text: FormatTime(at, args.String("lang")),
				Said: Said{Code: api.TraceTimeTold, Args: map[string]string{"time": at.Format(time.RFC3339), "zone": zoneName(at)}}}, nil
		},
	}
}

func loadZone(name string) (*time.Location, error) {
	// LoadLocation also accepts file-system-like names; a zone name never
	// contains "..", a backslash or a leading slash.
	if strings.Contains(name, "..") || strings.ContainsAny(name, `\`) || strings.HasPrefix(name, "/") {
		return nil, fmt.Errorf("%w: %q is not an IANA time zone name (like Asia/Seoul)", ErrInvalidArgs, name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("%w: unknown time zone %q; use an IANA name like Asia/Seoul or Europe/Paris", ErrInvalidArgs, name)
	}
	return loc, nil
}

// FormatTime writes t for the model in Korean ("ko") or English, with the
// zone, its UTC offset and an ISO 8601 form the model can compute with.
func FormatTime(t time.Time, lang string) string {
	offset := t.Format("-07:00")
	zone := t.Location().String()
	iso := t.Format(time.RFC3339)
	if lang == "ko" {
		ampm := "오전"
		h := t.Hour()
		if h >= 12 {
			ampm = "오후"
		}
		if h12 := h % 12; h12 == 0 {
			h = 12
		} else {
			h = h12
		}
		return fmt.Sprintf("%d년 %d월 %d일 %s %s %d시 %d분 %d초 (%s, UTC%s) — %s",
			t.Year(), int(t.Month()), t.Day(), weekdayKO[t.Weekday()], ampm, h, t.Minute(), t.Second(), zone, offset, iso)
	}
	return fmt.Sprintf("%s, %d %s %d, %s (%s, UTC%s) — %s",
		t.Weekday(), t.Day(), t.Month(), t.Year(), t.Format("15:04:05"), zone, offset, iso)
}

// zoneName names the zone of t for the trace: its IANA name, or its
// offset ("UTC+09:00") where the zone is the computer's own, which Go
// calls "Local".
func zoneName(t time.Time) string {
	if name := t.Location().String(); name != "Local" && name != "" {
		return name
	}
	return "UTC" + t.Format("-07:00")
}
