package app

import "strings"

// kindWords name a document's kind (the importer's Kind, and "catalog"
// for the built-in tool catalog) as a person knows it, in English and
// Korean: the window's kindName (frontend/src/knowledge/formats.ts and
// "kinds.*" in frontend/src/i18n; a test holds them equal), so that
// `wayfinder kb list` says "Web page" or "웹 페이지" where the Knowledge
// view does, not the importer's "html". Hancom's and OpenDocument's kinds
// put their extension in {ext}.
var kindWords = map[string][2]string{
	"pdf": {"PDF", "PDF"}, "json": {"JSON", "JSON"}, "docx": {"Word", "Word"}, "epub": {"EPUB", "EPUB"},
	"pptx": {"PowerPoint", "PowerPoint"}, "xlsx": {"Excel", "Excel"}, "csv": {"CSV", "CSV"}, "rtf": {"RTF", "RTF"},
	"text":     {"Text", "텍스트"},
	"markdown": {"Markdown", "마크다운"},
	"html":     {"Web page", "웹 페이지"},
	"hwp":      {"Hancom ({ext})", "한글({ext})"}, "hwpx": {"Hancom ({ext})", "한글({ext})"},
	"odt": {"OpenDocument ({ext})", "OpenDocument({ext})"}, "ods": {"OpenDocument ({ext})", "OpenDocument({ext})"},
	"odp":     {"OpenDocument ({ext})", "OpenDocument({ext})"},
	"catalog": {"Tool catalog", "도구 목록"},
}

// kindName is kind as a person knows it in language lang (langIndex); a
// kind it does not know is said as it came, as the window does.
func kindName(kind string, lang int) string {
	w, ok := kindWords[kind]
	if !ok {
		return kind
	}
	return fill(w[lang], map[string]string{"ext": strings.ToUpper(kind)})
}
