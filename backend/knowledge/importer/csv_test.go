package importer

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/korean"
)

func TestCSV(t *testing.T) {
	cp949, err := korean.EUCKR.NewEncoder().String("이름,점수\r\n김민준,92\r\n")
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("가", maxHeld/3+10) // one field over maxHeld bytes
	cut := (maxHeld + 2) / 3 * 3              // the first rune boundary at maxHeld or after
	tests := []struct {
		name, file, data, want string
	}{
		{"the first row heads the rows", "성적.csv", "이름,학년,점수\n김민준,3,92.5\n이서연,2,88\n", "# 이름 | 학년 | 점수\n김민준 | 3 | 92.5\n이서연 | 2 | 88"},
		{"quotes: separators, line breaks and doubled quotes inside", "q.csv", "제목,내용\n\"가, 나\",\"첫 줄\n둘째 줄\"\n\"그는 \"\"예\"\"라고\",끝", "# 제목 | 내용\n가, 나 | 첫 줄 둘째 줄\n그는 \"예\"라고 | 끝"},
		{"a quote inside an unquoted field, and after a quoted part", "q2.csv", "a,b\n5\" 화면,\"12\"인치\n", "# a | b\n5\" 화면 | 12인치"},
		{"empty fields keep their places, empty rows left out", "e.csv", "a,b,c\n\n,x,\n1,,3\n,,\n", "# a | b | c\n| x\n1 |  | 3"},
		{"tabs in a .tsv", "t.tsv", "이름\t메모\n김\t쉼표, 있음\n", "# 이름 | 메모\n김 | 쉼표, 있음"},
		{"CRLF and EUC-KR, as a Korean Excel saves CSV", "excel.csv", cp949, "# 이름 | 점수\n김민준 | 92"},
		{"no line break at the end", "n.csv", "a\nb", "# a\nb"},
		{"a quote left open holds no more than maxHeld", "open.csv", "a,b\n\"" + long + "\n다음,줄\n", "# a | b\n" + long[:cut] + "\n" + long[cut:] + " 다음,줄"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sheetText(t, tt.file, []byte(tt.data)); got != tt.want {
				if len(got) > 300 {
					got, tt.want = got[:150]+"…"+got[len(got)-150:], tt.want[:150]+"…"+tt.want[len(tt.want)-150:]
				}
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// FuzzCSV: any bytes named .csv import or fail with an error, and what
// imports keeps every letter of its fields (quotes and separators aside).
func FuzzCSV(f *testing.F) {
	f.Add([]byte("a,b\n\"c,\"\"d\"\"\"\n"))
	f.Add([]byte("\"open\n가,나"))
	f.Add([]byte("\r\n,,\r\n\"\"\"\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Importer{}.Import(context.Background(), "f.csv", data)
		if err != nil {
			return
		}
		var got strings.Builder
		for _, p := range docs[0].Parts {
			got.WriteString(p.Text)
		}
		letters := func(s string) string {
			return strings.Map(func(r rune) rune {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					return r
				}
				return -1
			}, s)
		}
		if want := letters(string(data)); utf8.Valid(data) && !strings.ContainsRune(string(data), 0) && letters(got.String()) != want {
			t.Fatalf("letters %q, want %q", letters(got.String()), want)
		}
	})
}

// discard is a Sink that keeps nothing.
type discard struct{}

func (discard) Begin(Document) error { return nil }
func (discard) Text(string) error    { return nil }
func (discard) End(Document) error   { return nil }

// budgetRows is a CSV of n rows as a Korean budget sheet holds them
// (date, name, place, amount, note): 600,000 of them are 24 MB.
func budgetRows(n int) []byte {
	names, places := []string{"김민준", "이서연", "박지호", "최유나"}, []string{"서울", "부산", "대구", "광주"}
	var b strings.Builder
	b.WriteString("날짜,이름,지역,금액,비고\n")
	for i := range n {
		fmt.Fprintf(&b, "2025-%02d-%02d,%s,%s,%d,ok%d\n", i%12+1, i%28+1, names[i%4], places[i/4%4], 1000+i*7919%999000, i%100)
	}
	return []byte(b.String())
}

// BenchmarkReadCSV reads a 24 MB CSV as a sheet, and the same bytes as
// plain text (BenchmarkReadCSVAsText), to compare what the sheet costs:
// `go test -bench ReadCSV -cpuprofile` shows where.
func BenchmarkReadCSV(b *testing.B)       { benchmarkRead(b, "budget.csv") }
func BenchmarkReadCSVAsText(b *testing.B) { benchmarkRead(b, "budget.txt") }

func benchmarkRead(b *testing.B, name string) {
	data := budgetRows(600_000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := (Importer{}).Read(context.Background(), name, bytes.NewReader(data), discard{}); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzOneSpaced: a cell is left as it is exactly when splitting it into
// words and joining them with single spaces would give it back, so that
// the fast path writes what the slow one would.
func FuzzOneSpaced(f *testing.F) {
	for _, s := range []string{"", "a", "a b", " a", "a ", "a  b", "a\tb", "가\u00a0나", "x\u3000y", "\u0085", "a\u200bb", "\xff", "2025-03-19", "이서연"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.Join(strings.Fields(s), " ") == s
		if got := oneSpaced(s); got != want {
			t.Fatalf("oneSpaced(%q) = %v, want %v", s, got, want)
		}
		if got := oneSpaced([]byte(s)); got != want {
			t.Fatalf("oneSpaced([]byte(%q)) = %v, want %v", s, got, want)
		}
	})
}
