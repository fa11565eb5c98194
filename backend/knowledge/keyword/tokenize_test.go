package keyword

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTokens(t *testing.T) {
	plain := Analyzer{}
	tests := []struct {
		name string
		a    Analyzer
		in   string
		want []string
	}{
		{"korean particle", plain, "문서를", []string{"문서", "서를"}},
		{"korean two syllables", plain, "문서", []string{"문서"}},
		{"korean one syllable", plain, "책", []string{"책"}},
		{"korean one-syllable stem", plain, "책을", []string{"책을", "책"}},
		{"korean one-syllable stem, long particle", plain, "집에서", []string{"집에", "집", "에서"}},
		{"korean sentence keeps words apart", plain, "휴가 신청은 문서로", []string{"휴가", "신청", "청은", "문서", "서로"}},
		{"mixed scripts split", plain, "AI를 활용한 GPT-4o", []string{"ai", "를", "활용", "용한", "gpt", "4o"}},
		{"english lower-cased", plain, "Hello, World! x2", []string{"hello", "world", "x2"}},
		{"stemmed", Analyzer{Stem: true}, "Running connections generalization", []string{"run", "connect", "gener"}},
		{"stop words", Analyzer{Stopwords: true}, "the cat is on a mat", []string{"cat", "mat"}},
		{"accented kept", plain, "Café naïve", []string{"café", "naïve"}},
		{"japanese bigrams", plain, "東京都", []string{"東京", "京都"}},
		{"punctuation only", plain, "--- !!! ...", nil},
		{"empty", plain, "", nil},
		{"full-width digits", plain, "２０２４년", []string{"2024", "년"}},
		{"decomposed hangul", plain, "문서를", []string{"문서", "서를"}},
		{"full-width letters", plain, "Ｃａｌｃ", []string{"calc"}},
		{"ligature", Analyzer{Stem: true}, "ﬁles", []string{"file"}},
		{"circled number", plain, "①항", []string{"1", "항"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.a.Tokens(tt.in)); diff != "" {
				t.Errorf("Tokens(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestPorterStem(t *testing.T) {
	// Pairs from Porter's published sample vocabulary and output.
	tests := map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "ti", "caress": "caress", "cats": "cat",
		"feed": "feed", "agreed": "agre", "plastered": "plaster", "motoring": "motor", "sing": "sing",
		"conflated": "conflat", "troubled": "troubl", "sized": "size", "hopping": "hop", "tanned": "tan",
		"falling": "fall", "hissing": "hiss", "fizzed": "fizz", "failing": "fail", "filing": "file",
		"happy": "happi", "sky": "sky", "relational": "relat", "conditional": "condit", "rational": "ration",
		"valenci": "valenc", "digitizer": "digit", "conformabli": "conform", "radicalli": "radic",
		"differentli": "differ", "vileli": "vile", "analogousli": "analog", "vietnamization": "vietnam",
		"predication": "predic", "operator": "oper", "feudalism": "feudal", "decisiveness": "decis",
		"hopefulness": "hope", "callousness": "callous", "formaliti": "formal", "sensitiviti": "sensit",
		"sensibiliti": "sensibl", "triplicate": "triplic", "formative": "form", "formalize": "formal",
		"electriciti": "electr", "electrical": "electr", "hopeful": "hope", "goodness": "good",
		"revival": "reviv", "allowance": "allow", "inference": "infer", "airliner": "airlin",
		"gyroscopic": "gyroscop", "adjustable": "adjust", "defensible": "defens", "irritant": "irrit",
		"replacement": "replac", "adjustment": "adjust", "dependent": "depend", "adoption": "adopt",
		"homologou": "homolog", "communism": "commun", "activate": "activ", "angulariti": "angular",
		"homologous": "homolog", "effective": "effect", "bowdlerize": "bowdler", "probate": "probat",
		"rate": "rate", "cease": "ceas", "controll": "control", "roll": "roll", "generalizations": "gener",
		"is": "is", "a": "a",
	}
	for in, want := range tests {
		if got := porterStem(in); got != want {
			t.Errorf("porterStem(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzTokens(f *testing.F) {
	f.Add("문서를 읽습니다 AI를 Running")
	f.Add("\xff\xfe東京")
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range DefaultAnalyzer().Tokens(s) {
			if tok == "" {
				t.Fatalf("empty token from %q", s)
			}
		}
	})
}
