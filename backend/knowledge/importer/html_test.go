package importer

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A saved page reads as its text in order, as Markdown: the <title>
// names it, headings are "#" lines, closing tags HTML leaves out end the
// block they close, a table row is one line (a table in a cell joins the
// cell), <pre> keeps its lines fenced, entities are decoded, and what a
// browser does not show as text is left out.
func TestHTMLText(t *testing.T) {
	tests := []struct {
		name, page, title, want string
	}{
		{"a saved article",
			`<!DOCTYPE html><html><head><meta charset="utf-8"><title> 학칙 &amp; 규정 </title><style>p { color: red }</style>
<script>document.write("<p>not text</p>")</script></head>
<body><nav><a href="/">홈</a> · <a href="/a">메뉴</a></nav>
<h1>제1장 총칙</h1><h2>제1조(목적)</h2>
<p>이 규정은   학사 운영에
필요한 사항을 <b>정한다</b>.<p>본 규정은 1980년 6월 16일부터 시행한다.
<ul><li>첫째 항목<li>둘째 항목</ul>
<table><tr><th>구분<th>기간<tr><td>1학기<td>3월~6월 <table><tr><td>안</td><td>표</td></tr></table></table>
<pre>#!/bin/sh
# 주석도 글입니다
echo 1</pre>
<p>줄<br>바꿈 &lt;b&gt; &#xD55C;</p><template><p>보이지 않음</p></template><noscript>자바스크립트</noscript></body></html>`,
			"학칙 & 규정",
			"# 제1장 총칙\n\n## 제1조(목적)\n\n이 규정은 학사 운영에 필요한 사항을 정한다.\n\n본 규정은 1980년 6월 16일부터 시행한다.\n\n첫째 항목\n\n둘째 항목\n\n" +
				"구분 | 기간\n\n1학기 | 3월~6월 안 | 표\n\n```\n#!/bin/sh\n# 주석도 글입니다\necho 1\n```\n\n줄\n바꿈 <b> 한\n\n"},
		{"no title: the first heading", `<h2>Install</h2><div>Run <code>make</code>.</div>`, "Install", "## Install\n\nRun make.\n\n"},
		{"a fragment without a heading", `Just text &mdash; no tags.`, "page", "Just text — no tags.\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := Importer{}.Import(context.Background(), "page.html", []byte(tt.page))
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != 1 || !docs[0].Markdown || docs[0].Kind != KindHTML || docs[0].Title != tt.title {
				t.Fatalf("docs %+v", docs)
			}
			if got := docs[0].Parts[0].Text; got != tt.want {
				t.Errorf("text\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// Hostile pages end in bounded memory: one 20 MB tag fails on its limit;
// a script never closed, tables nested without end, 8 MB of text without
// a tag and a page of only markup are read (or found empty), handed on a
// megabyte at a time.
func TestHTMLLimits(t *testing.T) {
	_, err := Importer{}.Import(context.Background(), "a.html", []byte(`<p>ok</p><a title="`+strings.Repeat("x", 20<<20)+`">`))
	var le *HTMLLimitError
	if !errors.As(err, &le) {
		t.Fatalf("a 20 MB tag: %v", err)
	}
	docs, err := Importer{}.Import(context.Background(), "a.htm", []byte(`<p>before</p><script>`+strings.Repeat("<p>x", 10000)))
	if err != nil || docs[0].Parts[0].Text != "before\n\n" {
		t.Fatalf("an open script: %+v, %v", docs, err)
	}
	docs, err = Importer{}.Import(context.Background(), "b.html", []byte(strings.Repeat("<table><tr><td>셀", 100_000)))
	if err != nil || !strings.Contains(docs[0].Parts[0].Text, "셀") {
		t.Fatalf("nested tables: %v", err)
	}
	long := strings.Repeat("긴 줄 ", 1<<20) // 8 MB of text without a tag
	docs, err = Importer{}.Import(context.Background(), "long.html", []byte(long))
	if err != nil || strings.Count(docs[0].Parts[0].Text, "긴 줄") != 1<<20 {
		t.Fatalf("one long line: %v", err)
	}
	_, err = Importer{}.Import(context.Background(), "c.html", []byte(`<html><head><script>x</script></head><body><div></div></body></html>`))
	if !errors.Is(err, ErrEmpty) {
		t.Fatalf("no text: %v", err)
	}
}

func FuzzHTML(f *testing.F) {
	f.Add([]byte(`<title>t</title><h1>a</h1><p>b<table><tr><td>c<td>d</table><pre># e</pre>`))
	f.Add([]byte(`<script><p>x</script><svg><svg></svg>y</svg>z`))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Importer{}.Import(context.Background(), "f.html", data)
		if err == nil && (len(docs) != 1 || strings.TrimSpace(docs[0].Parts[0].Text) == "") {
			t.Fatalf("no error and no text: %+v", docs)
		}
		if err != nil && !worded(err) { // the person would read a Go error
			t.Fatalf("err %v: not one the app words", err)
		}
	})
}
