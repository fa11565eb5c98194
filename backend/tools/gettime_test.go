package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestGetTime(t *testing.T) {
	fixed := time.Date(2026, 11, 21, 1, 5, 9, 0, time.UTC) // Saturday
	clock := func() time.Time { return fixed }
	tests := []struct {
		name    string
		zone    string // default zone of the tool
		args    map[string]any
		want    string
		wantErr error
	}{
		{"default zone english", "Asia/Seoul", map[string]any{},
			"Saturday, 21 November 2026, 10:05:09 (Asia/Seoul, UTC+09:00) — 2026-11-21T10:05:09+09:00", nil},
		{"korean", "Asia/Seoul", map[string]any{"lang": "ko"},
			"2026년 11월 21일 토요일 오전 10시 5분 9초 (Asia/Seoul, UTC+09:00) — 2026-11-21T10:05:09+09:00", nil},
		{"other zone", "Asia/Seoul", map[string]any{"timezone": "America/New_York"},
			"Friday, 20 November 2026, 20:05:09 (America/New_York, UTC-05:00)", nil},
		{"korean other zone", "", map[string]any{"timezone": "Europe/London", "lang": "ko"},
			"2026년 11월 21일 토요일 오전 1시 5분 9초 (Europe/London, UTC+00:00)", nil},
		{"UTC", "", map[string]any{"timezone": "UTC"}, "Saturday, 21 November 2026, 01:05:09 (UTC, UTC+00:00)", nil},
		{"unknown zone", "", map[string]any{"timezone": "Mars/Olympus"}, "", ErrInvalidArgs},
		{"path-like zone", "", map[string]any{"timezone": "../../etc/passwd"}, "", ErrInvalidArgs},
		{"absolute zone", "", map[string]any{"timezone": "/etc/localtime"}, "", ErrInvalidArgs},
		{"bad lang", "", map[string]any{"lang": "fr"}, "", ErrInvalidArgs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := NewGetTime(clock, tt.zone).Call(context.Background(), tt.args)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil || !strings.HasPrefix(res.Text, tt.want) {
				t.Fatalf("text = %q, %v; want prefix %q", res.Text, err, tt.want)
			}
		})
	}
}

func TestFormatTimeKoreanNoonAndMidnight(t *testing.T) {
	for h, want := range map[int]string{0: "오전 12시", 12: "오후 12시", 13: "오후 1시", 11: "오전 11시"} {
		got := FormatTime(time.Date(2026, 1, 1, h, 0, 0, 0, time.UTC), "ko")
		if !strings.Contains(got, want) {
			t.Errorf("hour %d: %q lacks %q", h, got, want)
		}
	}
}

func TestGetTimeBadDefaultZoneFallsBackToLocal(t *testing.T) {
	res, err := NewGetTime(nil, "Not/AZone").Call(context.Background(), nil)
	if err != nil || res.Text == "" {
		t.Fatalf("get_time with bad default zone: %q, %v", res.Text, err)
	}
}
