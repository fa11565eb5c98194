package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
)

type fakeMemory struct {
	mems  []Memory
	added []Memory
	err   error
}

func (f *fakeMemory) Search(ctx context.Context, q string, k int) ([]Memory, error) {
	if f.err != nil {
		return nil, f.err
	}
	if k < len(f.mems) {
		return f.mems[:k], nil
	}
	return f.mems, nil
}

func (f *fakeMemory) Add(ctx context.Context, text, kind string) error {
	if f.err != nil {
		return f.err
	}
	f.added = append(f.added, Memory{Text: text, Kind: kind})
	return nil
}

func TestReadMemory(t *testing.T) {
	mems := []Memory{{ID: "1", Text: "이름은 민준", Kind: KindFact}, {ID: "2", Text: "Prefers free tools", Kind: KindPreference}}
	tests := []struct {
		name    string
		m       *fakeMemory
		args    map[string]any
		want    string
		wantErr bool
	}{
		{"found", &fakeMemory{mems: mems}, map[string]any{"query": "name"}, "1. [fact] 이름은 민준\n2. [preference] Prefers free tools", false},
		{"k limits", &fakeMemory{mems: mems}, map[string]any{"query": "name", "k": 1.0}, "1. [fact] 이름은 민준", false},
		{"empty", &fakeMemory{}, map[string]any{"query": "dog"}, `Nothing remembered about "dog".`, false},
		{"no query", &fakeMemory{}, map[string]any{}, "", true},
		{"store fails", &fakeMemory{err: errors.New("db locked")}, map[string]any{"query": "x"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := NewReadMemory(tt.m).Call(context.Background(), tt.args)
			if (err != nil) != tt.wantErr || res.Text != tt.want {
				t.Fatalf("= %q, %v; want %q (error %v)", res.Text, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestWriteMemory(t *testing.T) {
	tests := []struct {
		name    string
		args    map[string]any
		wantErr string
	}{
		{"preference", map[string]any{"text": "Prefers Korean answers", "kind": "preference"}, ""},
		{"fact", map[string]any{"text": "회사는 서울에 있다", "kind": "fact"}, ""},
		{"feedback", map[string]any{"text": "Liked the short guide", "kind": "feedback"}, ""},
		{"bad kind", map[string]any{"text": "x", "kind": "secret"}, "must be one of preference, fact, feedback"},
		{"missing kind", map[string]any{"text": "x"}, `"kind" is required`},
		{"too long", map[string]any{"text": strings.Repeat("가", MaxMemoryLen+1), "kind": "fact"}, "keep it under 500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeMemory{}
			res, err := NewWriteMemory(m).Call(context.Background(), tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || len(m.added) != 0 {
					t.Fatalf("err = %v, added %v; want %q", err, m.added, tt.wantErr)
				}
				return
			}
			if err != nil || len(m.added) != 1 || m.added[0].Kind != tt.args["kind"] || !strings.HasPrefix(res.Text, "Remembered") {
				t.Fatalf("= %q, %v, added %v", res.Text, err, m.added)
			}
		})
	}
	_, err := NewWriteMemory(&fakeMemory{err: errors.New("disk full")}).Call(context.Background(), map[string]any{"text": "x", "kind": "fact"})
	if err == nil || !strings.Contains(err.Error(), "save memory: disk full") {
		t.Errorf("store failure: %v", err)
	}
}
