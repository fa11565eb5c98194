package tools

import (
	"context"
	"errors"
	"testing"
)

type fakeMemory struct {
	mems []Memory
	err  error
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
