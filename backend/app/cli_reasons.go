package app

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// reasonText words why a file was not imported, or what was imported but
// not as it was (api.FileReason's codes), for `wayfinder kb import`: the
// window's own sentences ("knowledge.reason.*" in frontend/src/i18n, a
// test holds them equal), so the terminal and the Knowledge view say the
// same thing in the same language.
var reasonText = map[string][2]string{
	"knowledge.reason.pdf_limit.memory":            {"This PDF expands to more than {max} in memory; it looks damaged or hostile, so it was not imported.", "이 PDF는 메모리에서 {max}보다 크게 풀립니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_limit.open_time":         {"This PDF takes more than {max} seconds to open; it looks damaged or hostile, so it was not imported.", "이 PDF는 여는 데 {max}초 넘게 걸립니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_limit.page_time":         {"Page {page} of this PDF takes more than {max} seconds to read; it looks damaged or hostile, so it was not imported.", "이 PDF의 {page}쪽은 읽는 데 {max}초 넘게 걸립니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_limit.pages":             {"This PDF has more than {max} pages; it looks damaged or hostile, so it was not imported.", "이 PDF는 {max}쪽이 넘습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_limit.page_chars":        {"Page {page} of this PDF has more than {max} characters; it looks damaged or hostile, so it was not imported.", "이 PDF의 {page}쪽에는 글자가 {max}자 넘게 있습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_limit.text_bytes":        {"This PDF holds more than {max} of text; it looks damaged or hostile, so it was not imported.", "이 PDF에는 텍스트가 {max} 넘게 들어 있습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.pdf_encrypted":               {"This PDF is protected by a password. Save a copy without the password, then add that.", "이 PDF는 암호로 보호되어 있습니다. 암호를 없앤 사본을 저장해 그 파일을 추가하세요."},
	"knowledge.reason.pdf_no_text":                 {"This PDF has no text to read: scanned pages need OCR first.", "이 PDF에는 읽을 수 있는 텍스트가 없습니다. 스캔한 문서는 먼저 OCR을 거쳐야 합니다."},
	"knowledge.reason.pdf_damaged":                 {"This PDF is damaged or not really a PDF, so it could not be read.", "이 PDF는 손상되었거나 실제 PDF 파일이 아니어서 읽을 수 없습니다."},
	"knowledge.reason.not_regular":                 {"This is not a file but a device, pipe or socket, which has no end to read; add the file itself.", "파일이 아니라 장치, 파이프 또는 소켓이라 끝까지 읽을 수 없습니다. 파일 자체를 추가하세요."},
	"knowledge.reason.changed":                     {"This file changed while Wayfinder read it (it was being saved or written to), so it was not imported; add it again once it is saved.", "이 파일은 Wayfinder가 읽는 동안 바뀌었습니다(저장 중이었거나 다른 프로그램이 쓰고 있었습니다). 가져오지 않았으니 저장이 끝난 뒤 다시 추가하세요."},
	"knowledge.reason.not_found":                   {"This file cannot be found: it was moved or deleted, or a link leads nowhere.", "이 파일을 찾을 수 없습니다. 옮겨졌거나 지워졌거나, 링크가 가리키는 곳이 없습니다."},
	"knowledge.reason.unreadable":                  {"Wayfinder may not read this file (no permission, or links that loop); check it, then add it again.", "Wayfinder가 이 파일을 읽을 수 없습니다(읽기 권한이 없거나 링크가 서로를 가리킵니다). 확인한 뒤 다시 추가하세요."},
	"knowledge.reason.too_many_words":              {"This file holds more than {max} different words; it looks like generated data, not a document, and indexing it would take more memory than one file may. Add the documents it was made from instead.", "이 파일에는 서로 다른 단어가 {max}개보다 많습니다. 문서가 아니라 생성된 데이터로 보이며, 색인하려면 한 파일에 허용되는 것보다 많은 메모리가 듭니다. 대신 이 데이터를 만든 원래 문서들을 추가하세요."},
	"knowledge.reason.too_many_chunks":             {"This file holds more than {max} passages (records or paragraphs), the most Wayfinder keeps from one file; split it, then add the parts.", "이 파일에는 Wayfinder가 한 파일에서 담는 최대치인 {max}개보다 많은 구절(레코드나 문단)이 있습니다. 나눈 뒤 나눈 파일들을 추가하세요."},
	"knowledge.reason.path_too_long":               {"This file's path is longer than the system lets a program open; move it to a folder with a shorter path, then add it again.", "이 파일의 경로가 시스템이 열 수 있는 길이보다 깁니다. 더 짧은 경로의 폴더로 옮긴 뒤 다시 추가하세요."},
	"knowledge.reason.link_outside":                {"This is a link to {target}, outside the folder you chose: Wayfinder does not follow it, so nothing outside that folder is read. Add what it points to on its own if you want it.", "고른 폴더 밖의 {target}을(를) 가리키는 링크입니다. 고른 폴더 밖은 읽지 않도록 따라가지 않았습니다. 필요하면 링크가 가리키는 것을 직접 추가하세요."},
	"knowledge.reason.link_inside":                 {"This is a link to {target}, inside the folder you chose: that is read where it is, not a second time through the link.", "고른 폴더 안의 {target}을(를) 가리키는 링크입니다. 그것은 제자리에서 읽으므로 링크로 한 번 더 읽지 않습니다."},
	"knowledge.reason.link_hidden":                 {"This is a link to {target}, a hidden file or folder, which Wayfinder leaves out of a folder's import. Add it itself if you want it.", "숨김 파일이나 폴더인 {target}을(를) 가리키는 링크입니다. 폴더를 가져올 때 숨김 파일은 빼므로 가져오지 않았습니다. 필요하면 직접 추가하세요."},
	"knowledge.reason.link_loop":                   {"This link leads back to itself (links that point at each other), so there is nothing to read.", "이 링크는 서로를 가리키는 링크라 자기 자신으로 돌아오므로 읽을 것이 없습니다."},
	"knowledge.reason.link_broken":                 {"This link points to {target}, which does not exist (it was moved or deleted).", "이 링크가 가리키는 {target}이(가) 없습니다(옮겨졌거나 지워졌습니다)."},
	"knowledge.reason.too_large":                   {"This file is larger than {max} MB, the most Wayfinder reads from one file; split it, then add the parts.", "이 파일은 {max} MB보다 큽니다. Wayfinder가 한 파일에서 읽는 최대 크기입니다. 나눈 뒤 나눈 파일들을 추가하세요."},
	"knowledge.reason.office_damaged":              {"This document is damaged or not really a Word, Excel, PowerPoint, Hancom (HWP, HWPX), OpenDocument, RTF or EPUB file, so it could not be read.", "이 문서는 손상되었거나 실제 Word, Excel, PowerPoint, 한글(HWP, HWPX), OpenDocument, RTF, EPUB 파일이 아니어서 읽을 수 없습니다."},
	"knowledge.reason.office_encrypted":            {"This document is protected by a password or DRM, so its text cannot be read. Save a copy without the protection, then add that.", "이 문서는 암호나 DRM으로 보호되어 있어 글을 읽을 수 없습니다. 보호를 없앤 사본을 저장해 그 파일을 추가하세요."},
	"knowledge.reason.office_limit":                {"This document unpacks to more than Wayfinder reads from one file ({max} MB of text and markup, or too many parts or levels); it looks damaged or hostile, so it was not imported.", "이 문서는 풀었을 때 Wayfinder가 한 파일에서 읽는 양(본문과 서식 {max} MB, 또는 부분이나 단계 수)을 넘습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.legacy_doc":                  {"Wayfinder reads Word's .docx files, not the older .doc format: open it in Word or LibreOffice, save it as .docx (or PDF), then add that.", "Wayfinder는 Word의 .docx 파일을 읽지만 예전 .doc 형식은 읽지 못합니다. Word나 LibreOffice에서 열어 .docx(또는 PDF)로 저장한 뒤 그 파일을 추가하세요."},
	"knowledge.reason.legacy_hwp":                  {"This is an HWP 3 file (Hangul 97 or earlier), a format Wayfinder does not read: open it in Hancom Office, save it as .hwpx (or PDF), then add that.", "이 파일은 한글 97 이전의 HWP 3 형식이라 Wayfinder가 읽지 못합니다. 한글에서 열어 .hwpx(또는 PDF)로 저장한 뒤 그 파일을 추가하세요."},
	"knowledge.reason.html_limit":                  {"One tag or run of text in this page is longer than {max} MB; it looks damaged or hostile, so it was not imported.", "이 페이지에는 {max} MB보다 긴 태그나 글 덩어리가 있습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.legacy_ppt":                  {"Wayfinder reads PowerPoint's .pptx files, not the older .ppt format: open it in PowerPoint or LibreOffice, save it as .pptx (or PDF), then add that.", "Wayfinder는 PowerPoint의 .pptx 파일을 읽지만 예전 .ppt 형식은 읽지 못합니다. PowerPoint나 LibreOffice에서 열어 .pptx(또는 PDF)로 저장한 뒤 그 파일을 추가하세요."},
	"knowledge.reason.legacy_xls":                  {"Wayfinder reads Excel's .xlsx files, not the older .xls format: open it in Excel or LibreOffice, save it as .xlsx (or PDF), then add that.", "Wayfinder는 Excel의 .xlsx 파일을 읽지만 예전 .xls 형식은 읽지 못합니다. Excel이나 LibreOffice에서 열어 .xlsx(또는 PDF)로 저장한 뒤 그 파일을 추가하세요."},
	"knowledge.reason.unsupported":                 {"This kind of file is not supported: Wayfinder reads PDF, Word (.docx), PowerPoint (.pptx), Excel (.xlsx), Hancom (.hwp, .hwpx), OpenDocument (.odt, .ods, .odp), RTF, web pages (HTML), EPUB books, Markdown, text, CSV, JSON and JSON Lines files.", "지원하지 않는 종류의 파일입니다. Wayfinder는 PDF, Word(.docx), PowerPoint(.pptx), Excel(.xlsx), 한글(.hwp, .hwpx), OpenDocument(.odt, .ods, .odp), RTF, 웹 페이지(HTML), EPUB 전자책, 마크다운, 텍스트, CSV, JSON, JSON Lines 파일을 읽습니다."},
	"knowledge.reason.empty":                       {"This file has no text to read.", "이 파일에는 읽을 텍스트가 없습니다."},
	"knowledge.reason.binary":                      {"This file holds binary data, not text (from line {line}), so it was not imported.", "이 파일은 텍스트가 아니라 바이너리 데이터여서({line}번째 줄부터) 가져오지 않았습니다."},
	"knowledge.reason.encoding":                    {"This file has many characters Wayfinder cannot read (from line {line}): save it as UTF-8, UTF-16 or EUC-KR text, then add it again.", "이 파일에는 Wayfinder가 읽을 수 없는 글자가 많습니다({line}번째 줄부터). UTF-8, UTF-16 또는 EUC-KR 텍스트로 저장한 뒤 다시 추가하세요."},
	"knowledge.reason.json_too_deep":               {"A JSON record starting on line {line} nests more than {max} levels deep, more than Wayfinder reads; it looks damaged or hostile, so it was not imported.", "{line}번째 줄에서 시작하는 JSON 레코드가 {max}단계보다 깊게 중첩되어 Wayfinder가 읽지 않습니다. 손상되었거나 악의적으로 만든 파일로 보여 가져오지 않았습니다."},
	"knowledge.reason.json_too_many_values":        {"A JSON record starting on line {line} holds so many values that reading it would take more than {max} MB of memory; split it, then add the file again.", "{line}번째 줄에서 시작하는 JSON 레코드에 값이 너무 많아 읽으려면 메모리가 {max} MB 넘게 듭니다. 나눈 뒤 파일을 다시 추가하세요."},
	"knowledge.reason.json_record_too_large":       {"A JSON record starting on line {line} is larger than {max} MB; split it, then add the file again.", "{line}번째 줄에서 시작하는 JSON 레코드가 {max} MB보다 큽니다. 나눈 뒤 파일을 다시 추가하세요."},
	"knowledge.reason.json_text_too_large":         {"A JSON record starting on line {line} would write more than {max} MB of text as \"key: value\" lines (each of its values after its path of keys); split it, then add the file again.", "{line}번째 줄에서 시작하는 JSON 레코드는 \"키: 값\" 줄로 풀어 쓰면(값마다 그 키 경로를 앞에 붙여) 글이 {max} MB를 넘습니다. 나눈 뒤 파일을 다시 추가하세요."},
	"knowledge.reason.too_slow":                    {"Reading this file took more than {max} seconds, so it was not imported.", "이 파일을 읽는 데 {max}초 넘게 걸려 가져오지 않았습니다."},
	"knowledge.reason.replaced":                    {"{count} unreadable characters were replaced with � (line numbers: {lines}).", "읽을 수 없는 글자 {count}개를 �로 바꿨습니다({lines}번째 줄)."},
	"knowledge.reason.replaced.one":                {"1 unreadable character was replaced with � (line number: {lines}).", "읽을 수 없는 글자 1개를 �로 바꿨습니다({lines}번째 줄)."},
	"knowledge.reason.replaced.more":               {"{count} unreadable characters were replaced with � (line numbers: {lines} and later).", "읽을 수 없는 글자 {count}개를 �로 바꿨습니다({lines}번째 줄과 그 뒤)."},
	"knowledge.reason.missing_chapter":             {"{count} of {max} chapters were not imported: missing from the file or unreadable ({lines}).", "장 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_chapter.one":         {"1 of {max} chapters was not imported: missing from the file or unreadable ({lines}).", "장 {max}개 중 1개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_chapter.more":        {"{count} of {max} chapters were not imported: missing from the file or unreadable ({lines} and others).", "장 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines} 외)."},
	"knowledge.reason.missing_section":             {"{count} of {max} sections were not imported: missing from the file or unreadable ({lines}).", "구역 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_section.one":         {"1 of {max} sections was not imported: missing from the file or unreadable ({lines}).", "구역 {max}개 중 1개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_section.more":        {"{count} of {max} sections were not imported: missing from the file or unreadable ({lines} and others).", "구역 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines} 외)."},
	"knowledge.reason.missing_part":                {"{count} of {max} parts were not imported: missing from the file or unreadable ({lines}).", "부분 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_part.one":            {"1 of {max} parts was not imported: missing from the file or unreadable ({lines}).", "부분 {max}개 중 1개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_part.more":           {"{count} of {max} parts were not imported: missing from the file or unreadable ({lines} and others).", "부분 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines} 외)."},
	"knowledge.reason.missing_notes_part":          {"{count} of {max} notes parts were not imported: missing from the file or unreadable ({lines}).", "각주·미주 부분 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_notes_part.one":      {"1 of {max} notes parts was not imported: missing from the file or unreadable ({lines}).", "각주·미주 부분 {max}개 중 1개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_notes_part.more":     {"{count} of {max} notes parts were not imported: missing from the file or unreadable ({lines} and others).", "각주·미주 부분 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines} 외)."},
	"knowledge.reason.missing_sheet":               {"{count} of {max} sheets were not imported: missing from the file or unreadable ({lines}).", "시트 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_sheet.one":           {"1 of {max} sheets was not imported: missing from the file or unreadable ({lines}).", "시트 {max}개 중 1개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_sheet.more":          {"{count} of {max} sheets were not imported: missing from the file or unreadable ({lines} and others).", "시트 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines} 외)."},
	"knowledge.reason.missing_text_cell":           {"{count} of {max} text cells were not imported: missing from the file or unreadable ({lines}).", "텍스트 셀 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_text_cell.one":       {"1 of {max} text cells was not imported: missing from the file or unreadable ({lines}).", "텍스트 셀 {max}개 중 1개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_text_cell.more":      {"{count} of {max} text cells were not imported: missing from the file or unreadable ({lines} and others).", "텍스트 셀 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines} 외)."},
	"knowledge.reason.missing_slide":               {"{count} of {max} slides were not imported: missing from the file or unreadable ({lines}).", "슬라이드 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_slide.one":           {"1 of {max} slides was not imported: missing from the file or unreadable ({lines}).", "슬라이드 {max}개 중 1개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_slide.more":          {"{count} of {max} slides were not imported: missing from the file or unreadable ({lines} and others).", "슬라이드 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines} 외)."},
	"knowledge.reason.missing_speakers_notes":      {"{count} of {max} speaker's notes were not imported: missing from the file or unreadable ({lines}).", "발표자 노트 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_speakers_notes.one":  {"1 of {max} speaker's notes was not imported: missing from the file or unreadable ({lines}).", "발표자 노트 {max}개 중 1개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines})."},
	"knowledge.reason.missing_speakers_notes.more": {"{count} of {max} speaker's notes were not imported: missing from the file or unreadable ({lines} and others).", "발표자 노트 {max}개 중 {count}개를 가져오지 못했습니다. 파일에 없거나 읽을 수 없습니다({lines} 외)."},
	"knowledge.reason.cut_short":                   {"The file ends before its document does, so it looks cut short or damaged: only the text up to there was imported.", "파일이 문서가 끝나기 전에 끝납니다. 잘렸거나 손상된 파일로 보이며, 거기까지의 글만 가져왔습니다."},
	"knowledge.reason.cut_short_binary":            {"The file ends inside binary data (a picture or an object) that it says is longer, so it looks cut short or damaged: only the text before it was imported.", "파일이 그림 같은 바이너리 데이터 중간에서 끝납니다. 잘렸거나 손상된 파일로 보이며, 그 앞의 글만 가져왔습니다."},
	"knowledge.reason.trailing":                    {"The document ends before the file does; what follows was not imported (the file may be damaged, or two files joined).", "문서가 끝난 뒤에도 파일이 이어집니다. 그 뒤는 가져오지 않았습니다(손상되었거나 두 파일이 이어 붙은 것일 수 있습니다)."},
	"knowledge.reason.broken_off_paragraph":        {"The file breaks off after paragraph {count} (“{lines}”): it is damaged or cut short there. The text up to that paragraph was imported, the rest was not.", "파일이 {count}번째 문단(“{lines}”) 뒤에서 끊깁니다. 그곳이 손상되었거나 잘렸습니다. 그 문단까지의 글은 가져왔고 나머지는 가져오지 못했습니다."},
	"knowledge.reason.broken_off_sheet":            {"The file breaks off after sheet {count} (“{lines}”): it is damaged or cut short there. The sheets up to that one were imported, the rest was not.", "파일이 {count}번째 시트(“{lines}”) 뒤에서 끊깁니다. 그곳이 손상되었거나 잘렸습니다. 그 시트까지는 가져왔고 나머지는 가져오지 못했습니다."},
	"knowledge.reason.broken_off_slide":            {"The file breaks off after slide {count}: it is damaged or cut short there. Slides 1 to {count} were imported, the rest was not.", "파일이 {count}번째 슬라이드 뒤에서 끊깁니다. 그곳이 손상되었거나 잘렸습니다. 1~{count}번째 슬라이드는 가져왔고 나머지는 가져오지 못했습니다."},
	"knowledge.reason.broken_off_slide.one":        {"The file breaks off after slide 1: it is damaged or cut short there. Slide 1 was imported, the rest was not.", "파일이 첫 슬라이드 뒤에서 끊깁니다. 그곳이 손상되었거나 잘렸습니다. 첫 슬라이드는 가져왔고 나머지는 가져오지 못했습니다."},
	"knowledge.reason.index_lost_sheet":            {"The file's list of its sheets ({lines}) is missing or damaged: {count} sheets were read from the file all the same, named by their parts (sheet1, sheet2…), as their names are only in that list.", "파일의 시트 목록({lines})이 없거나 손상되었습니다. 시트 {count}개는 그래도 읽었지만, 이름은 그 목록에만 있어 파일 안의 이름(sheet1, sheet2…)으로 붙였습니다."},
	"knowledge.reason.index_lost_sheet.one":        {"The file's list of its sheets ({lines}) is missing or damaged: 1 sheet was read from the file all the same, named by its part (sheet1…), as its name is only in that list.", "파일의 시트 목록({lines})이 없거나 손상되었습니다. 시트 1개는 그래도 읽었지만, 이름은 그 목록에만 있어 파일 안의 이름(sheet1…)으로 붙였습니다."},
	"knowledge.reason.index_lost_chapter":          {"The book's list of its chapters ({lines}) is missing or damaged: {count} chapters were read from the file all the same, in the order the file keeps them, which may not be the book's.", "책의 장 목록({lines})이 없거나 손상되었습니다. 장 {count}개는 그래도 읽었지만, 파일에 든 순서대로 읽어 책의 순서와 다를 수 있습니다."},
	"knowledge.reason.index_lost_chapter.one":      {"The book's list of its chapters ({lines}) is missing or damaged: 1 chapter was read from the file all the same.", "책의 장 목록({lines})이 없거나 손상되었습니다. 장 1개는 그래도 읽었습니다."},
	"knowledge.reason.repeated_chapter":            {"The book's list of its chapters names the same chapter more than once ({lines}): each chapter was imported once, where it first comes, and the {count} repeats were left out.", "책의 장 목록에 같은 장이 여러 번 나옵니다({lines}). 각 장은 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 {count}번은 뺐습니다."},
	"knowledge.reason.repeated_chapter.one":        {"The book's list of its chapters names the same chapter more than once ({lines}): it was imported once, where it first comes, and the repeat was left out.", "책의 장 목록에 같은 장이 여러 번 나옵니다({lines}). 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 1번은 뺐습니다."},
	"knowledge.reason.repeated_chapter.more":       {"The book's list of its chapters names the same chapter more than once ({lines} and others): each chapter was imported once, where it first comes, and the {count} repeats were left out.", "책의 장 목록에 같은 장이 여러 번 나옵니다({lines} 외). 각 장은 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 {count}번은 뺐습니다."},
	"knowledge.reason.repeated_slide":              {"The file's list of its slides names the same slide more than once ({lines}): each slide was imported once, where it first comes, and the {count} repeats were left out.", "파일의 슬라이드 목록에 같은 슬라이드가 여러 번 나옵니다({lines}). 각 슬라이드는 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 {count}번은 뺐습니다."},
	"knowledge.reason.repeated_slide.one":          {"The file's list of its slides names the same slide more than once ({lines}): it was imported once, where it first comes, and the repeat was left out.", "파일의 슬라이드 목록에 같은 슬라이드가 여러 번 나옵니다({lines}). 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 1번은 뺐습니다."},
	"knowledge.reason.repeated_slide.more":         {"The file's list of its slides names the same slide more than once ({lines} and others): each slide was imported once, where it first comes, and the {count} repeats were left out.", "파일의 슬라이드 목록에 같은 슬라이드가 여러 번 나옵니다({lines} 외). 각 슬라이드는 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 {count}번은 뺐습니다."},
	"knowledge.reason.repeated_section":            {"The file's list of its sections names the same section more than once ({lines}): each section was imported once, where it first comes, and the {count} repeats were left out.", "파일의 구역 목록에 같은 구역이 여러 번 나옵니다({lines}). 각 구역은 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 {count}번은 뺐습니다."},
	"knowledge.reason.repeated_section.one":        {"The file's list of its sections names the same section more than once ({lines}): it was imported once, where it first comes, and the repeat was left out.", "파일의 구역 목록에 같은 구역이 여러 번 나옵니다({lines}). 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 1번은 뺐습니다."},
	"knowledge.reason.repeated_section.more":       {"The file's list of its sections names the same section more than once ({lines} and others): each section was imported once, where it first comes, and the {count} repeats were left out.", "파일의 구역 목록에 같은 구역이 여러 번 나옵니다({lines} 외). 각 구역은 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 {count}번은 뺐습니다."},
	"knowledge.reason.repeated_part":               {"The file's list of its parts names the same part more than once ({lines}): each part was imported once, where it first comes, and the {count} repeats were left out.", "파일의 내부 파일 목록에 같은 내부 파일이 여러 번 나옵니다({lines}). 각 내부 파일은 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 {count}번은 뺐습니다."},
	"knowledge.reason.repeated_part.one":           {"The file's list of its parts names the same part more than once ({lines}): it was imported once, where it first comes, and the repeat was left out.", "파일의 내부 파일 목록에 같은 내부 파일이 여러 번 나옵니다({lines}). 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 1번은 뺐습니다."},
	"knowledge.reason.repeated_part.more":          {"The file's list of its parts names the same part more than once ({lines} and others): each part was imported once, where it first comes, and the {count} repeats were left out.", "파일의 내부 파일 목록에 같은 내부 파일이 여러 번 나옵니다({lines} 외). 각 내부 파일은 처음 나오는 자리에서 한 번만 가져왔고, 되풀이된 {count}번은 뺐습니다."},
	"knowledge.reason.cut_in_chapter":              {"The file is cut short inside the chapter {lines}: its first {count} paragraphs were imported and the rest of that chapter is missing; the book's chapters after it were imported as well.", "파일이 {lines} 장 안에서 잘렸습니다. 그 장은 처음 {count}개 문단까지 가져왔고 나머지는 빠졌습니다. 책에서 그 뒤의 장들도 가져왔습니다."},
	"knowledge.reason.cut_in_chapter.one":          {"The file is cut short inside the chapter {lines}: its first paragraph was imported and the rest of that chapter is missing; the book's chapters after it were imported as well.", "파일이 {lines} 장 안에서 잘렸습니다. 그 장은 첫 문단까지 가져왔고 나머지는 빠졌습니다. 책에서 그 뒤의 장들도 가져왔습니다."},
	"knowledge.reason.long_token_chapter":          {"The chapter {lines} holds a {target} longer than {max} MB: it was left out, and the rest of the chapter imported.", "{lines} 장에 {max} MB보다 긴 {target}이(가) 있어 그것만 빼고 장의 나머지를 가져왔습니다."},
	"knowledge.reason.long_text_chapter":           {"The chapter {lines} holds a run of text longer than {max} MB without a tag: what follows its first {max} MB was left out, and the rest of the chapter imported.", "{lines} 장에 태그 없이 {max} MB보다 긴 글 덩어리가 있어 처음 {max} MB 뒤의 부분은 빼고 장의 나머지를 가져왔습니다."},
	"knowledge.reason.partly_chapter":              {"The chapter {lines} could not be read to its end: what was read of it before was imported, and the rest of that chapter is missing.", "{lines} 장은 끝까지 읽지 못했습니다. 그 앞까지 읽은 부분은 가져왔고 그 장의 나머지는 빠졌습니다."},
	"knowledge.reason.repeated_sheet":              {"The workbook's list of its sheets names the same sheet more than once ({lines}): each sheet was imported once, under the name it first comes with, and the {count} repeats were left out.", "통합 문서의 시트 목록에 같은 시트가 여러 번 나옵니다({lines}). 각 시트는 처음 나오는 이름으로 한 번만 가져왔고, 되풀이된 {count}번은 뺐습니다."},
	"knowledge.reason.repeated_sheet.one":          {"The workbook's list of its sheets names the same sheet more than once ({lines}): it was imported once, under the name it first comes with, and the repeat was left out.", "통합 문서의 시트 목록에 같은 시트가 여러 번 나옵니다({lines}). 처음 나오는 이름으로 한 번만 가져왔고, 되풀이된 1번은 뺐습니다."},
	"knowledge.reason.repeated_sheet.more":         {"The workbook's list of its sheets names the same sheet more than once ({lines} and others): each sheet was imported once, under the name it first comes with, and the {count} repeats were left out.", "통합 문서의 시트 목록에 같은 시트가 여러 번 나옵니다({lines} 외). 각 시트는 처음 나오는 이름으로 한 번만 가져왔고, 되풀이된 {count}번은 뺐습니다."},
	"knowledge.reason.broken_off_row":              {"The file breaks off after {count} rows of its sheet, the last “{lines}”: it is damaged or cut short there. Those rows were imported, the rest was not.", "파일이 시트의 행 {count}개 뒤(마지막 행 “{lines}”)에서 끊깁니다. 그곳이 손상되었거나 잘렸습니다. 그 행들은 가져왔고 나머지는 가져오지 못했습니다."},
	"knowledge.reason.broken_off_row.one":          {"The file breaks off after the first row of its sheet (“{lines}”): it is damaged or cut short there. That row was imported, the rest was not.", "파일이 시트의 첫 행(“{lines}”) 뒤에서 끊깁니다. 그곳이 손상되었거나 잘렸습니다. 그 행은 가져왔고 나머지는 가져오지 못했습니다."},
	"knowledge.reason.records_too_large":           {"{count} JSON records larger than {max} MB were left out (lines {lines}); the others were imported. Split those records to import them.", "{max} MB보다 큰 JSON 레코드 {count}개는 빼고 나머지를 가져왔습니다({lines}번째 줄). 그 레코드들을 가져오려면 나누세요."},
	"knowledge.reason.records_too_large.one":       {"1 JSON record larger than {max} MB was left out (line {lines}); the others were imported. Split it to import it.", "{max} MB보다 큰 JSON 레코드 1개는 빼고 나머지를 가져왔습니다({lines}번째 줄). 그 레코드를 가져오려면 나누세요."},
	"knowledge.reason.records_too_large.more":      {"{count} JSON records larger than {max} MB were left out (lines {lines} and later); the others were imported. Split those records to import them.", "{max} MB보다 큰 JSON 레코드 {count}개는 빼고 나머지를 가져왔습니다({lines}번째 줄과 그 뒤). 그 레코드들을 가져오려면 나누세요."},
	"knowledge.reason.archive_salvaged":            {"The file is cut short or its list of parts is damaged: what remains of it was read ({count} parts); whatever came after the cut is missing.", "파일이 잘렸거나 내부 파일 목록이 손상되었습니다. 남아 있는 내부 파일 {count}개를 읽었고, 잘린 부분 뒤의 내용은 빠졌습니다."},
	"knowledge.reason.archive_salvaged.one":        {"The file is cut short or its list of parts is damaged: what remains of it was read (1 part); whatever came after the cut is missing.", "파일이 잘렸거나 내부 파일 목록이 손상되었습니다. 남아 있는 내부 파일 1개를 읽었고, 잘린 부분 뒤의 내용은 빠졌습니다."},
	"knowledge.reason.json_invalid":                {"This file is not valid JSON: the first mistake is on line {line}. Fix it there, then add the file again.", "올바른 JSON 파일이 아닙니다. 처음 잘못된 곳은 {line}번째 줄입니다. 그곳을 고친 뒤 파일을 다시 추가해 주세요."},
	"knowledge.reason.json_invalid_somewhere":      {"This file is not valid JSON. Fix it, then add the file again.", "올바른 JSON 파일이 아닙니다. 고친 뒤 파일을 다시 추가해 주세요."},
	"knowledge.reason.json_unfinished":             {"This file is not valid JSON: the record that begins on line {line} never ends (a closing brace, bracket or quote is missing). Fix it there, then add the file again.", "올바른 JSON 파일이 아닙니다. {line}번째 줄에서 시작하는 레코드가 끝나지 않습니다(닫는 괄호나 따옴표가 빠졌습니다). 그곳을 고친 뒤 파일을 다시 추가해 주세요."},

	// records left out of a JSON Lines file, each too many values to parse (json.go)
	"knowledge.reason.records_too_many_values":      {"{count} JSON records holding so many values that reading each would take more than {max} MB of memory were left out (lines {lines}); the others were imported. Split those records to import them.", "값이 너무 많아 읽으려면 메모리가 {max} MB 넘게 드는 JSON 레코드 {count}개는 빼고 나머지를 가져왔습니다({lines}번째 줄). 그 레코드들을 가져오려면 나누세요."},
	"knowledge.reason.records_too_many_values.one":  {"1 JSON record holding so many values that reading it would take more than {max} MB of memory was left out (line {lines}); the others were imported. Split it to import it.", "값이 너무 많아 읽으려면 메모리가 {max} MB 넘게 드는 JSON 레코드 1개는 빼고 나머지를 가져왔습니다({lines}번째 줄). 그 레코드를 가져오려면 나누세요."},
	"knowledge.reason.records_too_many_values.more": {"{count} JSON records holding so many values that reading each would take more than {max} MB of memory were left out (lines {lines} and later); the others were imported. Split those records to import them.", "값이 너무 많아 읽으려면 메모리가 {max} MB 넘게 드는 JSON 레코드 {count}개는 빼고 나머지를 가져왔습니다({lines}번째 줄과 그 뒤). 그 레코드들을 가져오려면 나누세요."},
	"knowledge.reason.records_text_too_large":       {"{count} JSON records whose text written out as \"key: value\" lines would each pass {max} MB were left out (lines {lines}); the others were imported. Split those records to import them.", "\"키: 값\" 줄로 풀어 쓰면 글이 {max} MB를 넘는 JSON 레코드 {count}개는 빼고 나머지를 가져왔습니다({lines}번째 줄). 그 레코드들을 가져오려면 나누세요."},
	"knowledge.reason.records_text_too_large.one":   {"1 JSON record whose text written out as \"key: value\" lines would pass {max} MB was left out (line {lines}); the others were imported. Split it to import it.", "\"키: 값\" 줄로 풀어 쓰면 글이 {max} MB를 넘는 JSON 레코드 1개는 빼고 나머지를 가져왔습니다({lines}번째 줄). 그 레코드를 가져오려면 나누세요."},
	"knowledge.reason.records_text_too_large.more":  {"{count} JSON records whose text written out as \"key: value\" lines would each pass {max} MB were left out (lines {lines} and later); the others were imported. Split those records to import them.", "\"키: 값\" 줄로 풀어 쓰면 글이 {max} MB를 넘는 JSON 레코드 {count}개는 빼고 나머지를 가져왔습니다({lines}번째 줄과 그 뒤). 그 레코드들을 가져오려면 나누세요."},

	// the repeats of a slide or table past which the file was read no further (odp.go, ods.go)
	"knowledge.reason.repeated_slide_stopped":      {"The file writes the same slide again {count} times ({lines}): each slide was imported once, where it first comes; past that many repeats the file was read no further, so anything after them was not imported.", "파일에 같은 슬라이드가 {count}번 되풀이됩니다({lines}). 각 슬라이드는 처음 나오는 자리에서 한 번만 가져왔고, 그만큼 되풀이된 뒤로는 파일을 더 읽지 않아 그 뒤의 내용은 가져오지 못했습니다."},
	"knowledge.reason.repeated_slide_stopped.more": {"The file writes the same slide again {count} times ({lines} and others): each slide was imported once, where it first comes; past that many repeats the file was read no further, so anything after them was not imported.", "파일에 같은 슬라이드가 {count}번 되풀이됩니다({lines} 외). 각 슬라이드는 처음 나오는 자리에서 한 번만 가져왔고, 그만큼 되풀이된 뒤로는 파일을 더 읽지 않아 그 뒤의 내용은 가져오지 못했습니다."},
	"knowledge.reason.repeated_sheet_stopped":      {"The workbook writes the same sheet again {count} times ({lines}): each sheet was imported once, under the name it first comes with; past that many repeats the workbook was read no further, so anything after them was not imported.", "통합 문서에 같은 시트가 {count}번 되풀이됩니다({lines}). 각 시트는 처음 나오는 이름으로 한 번만 가져왔고, 그만큼 되풀이된 뒤로는 통합 문서를 더 읽지 않아 그 뒤의 내용은 가져오지 못했습니다."},
	"knowledge.reason.repeated_sheet_stopped.more": {"The workbook writes the same sheet again {count} times ({lines} and others): each sheet was imported once, under the name it first comes with; past that many repeats the workbook was read no further, so anything after them was not imported.", "통합 문서에 같은 시트가 {count}번 되풀이됩니다({lines} 외). 각 시트는 처음 나오는 이름으로 한 번만 가져왔고, 그만큼 되풀이된 뒤로는 통합 문서를 더 읽지 않아 그 뒤의 내용은 가져오지 못했습니다."},
}

// errorText words the errors the command line meets most — Ollama or a
// model away or failing, the disk or the data folder, a folder, a memory
// or a message refused — from their particulars (api.ErrorInfo's Args):
// the window's title "error.<code>", its ".detail" and its ".hint" or
// ".advice" (a test holds them equal). Other codes keep the backend's
// English words.
var errorText = map[string][2]string{
	"error.ollama_unreachable":                 {"Ollama is not reachable.", "Ollama에 연결할 수 없습니다."},
	"error.ollama_unreachable.detail":          {"Wayfinder cannot reach Ollama at {host}.", "Wayfinder가 {host}의 Ollama에 연결할 수 없습니다."},
	"error.ollama_unreachable.advice":          {"Start Ollama (run `ollama serve`, or open the Ollama app); if it is not installed, get it from https://ollama.com/download. If Ollama runs elsewhere, change the Ollama host in Settings.", "Ollama를 실행하세요(`ollama serve`를 실행하거나 Ollama 앱을 여세요). 설치되어 있지 않다면 https://ollama.com/download 에서 받으세요. Ollama가 다른 컴퓨터에서 실행 중이면 설정에서 Ollama 호스트를 바꾸세요."},
	"error.model_missing":                      {"The model is not downloaded.", "모델이 설치되어 있지 않습니다."},
	"error.model_missing.detail":               {"{model} is not in Ollama on this computer.", "이 컴퓨터의 Ollama에 {model} 모델이 없습니다."},
	"error.model_missing.hint":                 {"Download it under Settings › Download a model, or run `ollama pull {model}` in a terminal.", "설정 › 모델 내려받기에서 받거나, 터미널에서 `ollama pull {model}` 명령을 실행하세요."},
	"error.model_no_tools":                     {"This model cannot use tools.", "이 모델은 도구를 사용할 수 없습니다."},
	"error.model_no_tools.detail":              {"{model} cannot call tools, which Wayfinder needs for calculations, documents and recommendations.", "{model} 모델은 도구를 호출할 수 없습니다. Wayfinder는 계산, 문서, 추천에 도구가 필요합니다."},
	"error.model_no_tools.advice":              {"Choose a chat model with the \"tools\" badge in Settings, for example: `ollama pull llama3.2:3b`", "설정에서 '도구' 표시가 있는 채팅 모델을 고르세요. 예: `ollama pull llama3.2:3b`"},
	"error.model_out_of_memory":                {"The model does not fit in this computer's memory.", "이 컴퓨터의 메모리가 부족해 모델을 실행할 수 없습니다."},
	"error.model_out_of_memory.detail":         {"{model} needs more memory than this computer has free.", "{model} 모델을 실행하기에 이 컴퓨터의 메모리가 부족합니다."},
	"error.model_out_of_memory.advice":         {"Choose a smaller chat model in Settings, or name a fallback model there for when this one cannot run.", "설정에서 더 작은 채팅 모델을 고르거나, 이 모델을 실행할 수 없을 때 쓸 대체 모델을 지정하세요."},
	"error.timeout":                            {"The model took too long to answer.", "모델의 응답이 너무 오래 걸렸습니다."},
	"error.timeout.detail":                     {"Ollama did not answer in time (model {model}).", "Ollama가 제때 답하지 않았습니다(모델 {model})."},
	"error.timeout.advice":                     {"The model may still be loading or the computer is busy. Try again; if it keeps happening, choose a smaller model.", "모델을 아직 불러오는 중이거나 컴퓨터가 바쁠 수 있습니다. 다시 시도하고, 계속되면 더 작은 모델을 고르세요."},
	"error.bad_model_output":                   {"The model's answer could not be used.", "모델의 답을 사용할 수 없습니다."},
	"error.bad_model_output.detail":            {"{model} answered in a form Wayfinder could not read.", "{model} 모델이 Wayfinder가 읽을 수 없는 형식으로 답했습니다."},
	"error.bad_model_output.advice":            {"Try again; a larger model follows the format more reliably.", "다시 시도하세요. 더 큰 모델이 형식을 더 잘 지킵니다."},
	"error.ollama_error":                       {"Ollama reported an error.", "Ollama에서 오류가 났습니다."},
	"error.ollama_error.advice":                {"Try again; if it keeps happening, look at the Ollama server log or restart Ollama.", "다시 시도하세요. 계속되면 Ollama 서버 로그를 보거나 Ollama를 다시 시작하세요."},
	"error.stream_dropped":                     {"The reply was cut off before it finished.", "응답이 끝나기 전에 끊겼습니다."},
	"error.stream_dropped.hint":                {"Check that Ollama is still running (`ollama ps`), then send the message again.", "Ollama가 아직 실행 중인지 확인한 뒤(`ollama ps`) 메시지를 다시 보내세요."},
	"error.disk_full":                          {"The disk is full: Wayfinder cannot save.", "디스크가 가득 차서 Wayfinder가 저장할 수 없습니다."},
	"error.disk_full.detail":                   {"The disk that holds the data folder is full: {dir}", "데이터 폴더가 있는 디스크가 가득 찼습니다: {dir}"},
	"error.disk_full.hint":                     {"Free some space on that disk (empty the trash, remove large files you no longer need), then try again. What was saved before is kept.", "그 디스크의 공간을 비운 뒤(휴지통 비우기, 필요 없는 큰 파일 지우기) 다시 시도하세요. 전에 저장한 내용은 그대로 있습니다."},
	"error.data_folder_read_only":              {"Wayfinder cannot write to its data folder.", "Wayfinder가 데이터 폴더에 쓸 수 없습니다."},
	"error.data_folder_read_only.detail":       {"The data folder is read-only, or it belongs to another user: {dir}", "데이터 폴더가 읽기 전용이거나 다른 사용자의 폴더입니다: {dir}"},
	"error.data_folder_read_only.hint":         {"Make it writable for your user account, or start Wayfinder with --data-dir set to a folder you can write to.", "내 사용자 계정이 쓸 수 있도록 권한을 바꾸거나, 쓸 수 있는 폴더를 --data-dir로 지정해 Wayfinder를 시작하세요."},
	"error.folder_not_found":                   {"There is no such folder.", "그런 폴더가 없습니다."},
	"error.folder_not_found.detail":            {"There is no folder {path}.", "이 폴더가 없습니다: {path}"},
	"error.folder_not_granted":                 {"Wayfinder was not allowed to read that folder.", "Wayfinder가 읽도록 허용된 폴더가 아닙니다."},
	"error.folder_not_granted.detail":          {"This folder is not among those Wayfinder may read: {path}", "Wayfinder가 읽어도 되는 폴더 목록에 없는 폴더입니다: {path}"},
	"error.folder_not_granted.hint":            {"See the list under Settings › Readable folders, or run `wayfinder folders list`.", "설정 › 읽기 허용 폴더의 목록을 보거나 `wayfinder folders list` 명령을 실행하세요."},
	"error.not_a_folder":                       {"That is a file, not a folder.", "폴더가 아니라 파일입니다."},
	"error.not_a_folder.detail":                {"This is a file, not a folder: {path}", "폴더가 아니라 파일입니다: {path}"},
	"error.not_a_folder.hint":                  {"Grant the folder that holds it.", "그 파일이 들어 있는 폴더를 허용하세요."},
	"error.memory_kind_unknown":                {"That is not a kind of memory.", "알 수 없는 기억 종류입니다."},
	"error.memory_kind_unknown.detail":         {"Not a kind of memory: {kind}", "기억 종류가 아닙니다: {kind}"},
	"error.memory_kind_unknown.hint":           {"Use preference, fact or feedback.", "preference(선호), fact(사실), feedback(피드백) 중 하나를 쓰세요."},
	"error.memory_too_long":                    {"The memory is too long.", "기억할 내용이 너무 깁니다."},
	"error.memory_too_long.detail":             {"The memory is {n} characters long; at most {max} fit.", "기억할 내용이 {n}자입니다. {max}자까지 쓸 수 있습니다."},
	"error.memory_too_long.hint":               {"Keep it to one or two sentences.", "한두 문장으로 줄여 주세요."},
	"error.memory_empty":                       {"The memory is empty.", "기억할 내용이 비어 있습니다."},
	"error.memory_empty.hint":                  {"Write what Wayfinder should remember.", "Wayfinder가 기억할 내용을 적으세요."},
	"error.message_too_long":                   {"The message is too long.", "메시지가 너무 깁니다."},
	"error.message_too_long.detail":            {"The message is {n} characters long; the limit is {max}.", "메시지가 {n}자입니다. {max}자까지 보낼 수 있습니다."},
	"error.message_too_long.hint":              {"Shorten it, or import long text as a document in Knowledge and ask about it.", "메시지를 줄이거나, 긴 글은 지식 베이스에 문서로 가져와서 물어보세요."},
	"error.invalid_input.case.ollama_rejected": {"Ollama refused the request.", "Ollama가 요청을 거부했습니다."},
	"error.import_not_export":                  {"This file is not a Wayfinder conversation export, so nothing was imported.", "Wayfinder 대화 내보내기 파일이 아니어서 아무것도 가져오지 않았습니다."},
	"error.import_invalid":                     {"This conversation export cannot be imported as it is, so nothing was imported.", "이 대화 내보내기 파일은 그대로 가져올 수 없어 아무것도 가져오지 않았습니다."},
	"error.empty_message":                      {"The message is empty.", "메시지가 비어 있습니다."},
	"error.empty_message.hint":                 {"Type a question or a task, then send it.", "질문이나 할 일을 적은 뒤 보내세요."},

	// Why a file is not a conversation export, or not one that can be
	// imported as it is, by the archive's case (archive.Problem).
	"error.import_not_export.case.empty":                {"The file is empty.", "파일이 비어 있습니다."},
	"error.import_not_export.case.not_json":             {"The file is not JSON.", "파일이 JSON 형식이 아닙니다."},
	"error.import_not_export.case.not_object":           {"The file is JSON, but not an object ({…}) as an export is.", "JSON 파일이지만 내보내기 파일처럼 객체({…})로 되어 있지 않습니다."},
	"error.import_not_export.case.no_format":            {"The file has no \"format\": \"wayfinder.conversations\".", "파일에 \"format\": \"wayfinder.conversations\" 항목이 없습니다."},
	"error.import_not_export.case.format":               {"The file's \"format\" is {format}, not wayfinder.conversations.", "파일의 \"format\" 값이 wayfinder.conversations가 아니라 {format}입니다."},
	"error.import_not_export.case.format_not_text":      {"The file's \"format\" is not text.", "파일의 \"format\" 값이 문자열이 아닙니다."},
	"error.import_not_export.case.no_version":           {"The file has no valid \"version\" (a whole number from 1).", "파일에 올바른 \"version\" 값(1 이상의 정수)이 없습니다."},
	"error.import_not_export.case.version_not_number":   {"The file's \"version\" is not a whole number.", "파일의 \"version\" 값이 정수가 아닙니다."},
	"error.import_not_export.case.no_conversations":     {"The file has no \"conversations\" list.", "파일에 \"conversations\" 목록이 없습니다."},
	"error.import_invalid.case.too_large":               {"Conversation {n} in the file is larger than {mb} MB.", "파일의 {n}번째 대화가 {mb} MB보다 큽니다."},
	"error.import_invalid.case.json_broken":             {"The JSON is broken at byte {byte} of the file.", "파일의 {byte}번째 바이트에서 JSON 형식이 깨져 있습니다."},
	"error.import_invalid.case.cut_short":               {"The file ends too soon: it may have been cut short while it was saved or copied.", "파일이 도중에 끝납니다. 저장하거나 복사하는 중에 잘렸을 수 있습니다."},
	"error.import_invalid.case.newer":                   {"It was made by a newer Wayfinder (format version {version}; this one reads up to {max}): update Wayfinder, then import it again.", "더 새로운 Wayfinder로 만든 파일입니다(형식 버전 {version}, 이 Wayfinder는 {max}까지 읽습니다). Wayfinder를 업데이트한 뒤 다시 가져오세요."},
	"error.import_invalid.case.not_list":                {"The file's \"conversations\" is not a list.", "파일의 \"conversations\" 값이 목록이 아닙니다."},
	"error.import_invalid.case.field_type":              {"In conversation {n}, \"{field}\" should be a JSON {want}, not a {got}.", "{n}번째 대화의 \"{field}\" 값은 JSON {want} 형식이어야 하는데 {got} 형식입니다."},
	"error.import_invalid.case.conversation_type":       {"Conversation {n} is a JSON {got}, not an object.", "{n}번째 대화가 객체가 아니라 JSON {got} 형식입니다."},
	"error.import_invalid.case.conversation_unreadable": {"Conversation {n} cannot be read: a value in it is not in the form Wayfinder writes.", "{n}번째 대화를 읽을 수 없습니다. Wayfinder가 쓰는 형식과 다른 값이 들어 있습니다."},
	"error.import_invalid.case.conversation_check":      {"Conversation {n} cannot be stored as it is.", "{n}번째 대화를 그대로 저장할 수 없습니다."},
	"error.import_invalid.case.settings":                {"The settings of conversation {n} are out of range (temperature, context size).", "{n}번째 대화의 설정 값(온도, 컨텍스트 크기)이 허용 범위를 벗어났습니다."},
	"error.import_invalid.case.trailing":                {"There is more in the file after the end of the export.", "파일에 내보내기가 끝난 뒤에도 내용이 더 있습니다."},
	"error.import_invalid.case.unreadable":              {"The file cannot be read as an export.", "파일을 내보내기 파일로 읽을 수 없습니다."},

	// What Check refused, by the case's check (archive.CheckError), and
	// the particulars that are words: where in a conversation, JSON kinds.
	"error.import_invalid.where.message":                                {"message {msg}", "{msg}번째 메시지"},
	"error.import_invalid.where.variant":                                {"other answer {variant} of message {msg}", "{msg}번째 메시지의 {variant}번째 다른 답변"},
	"error.import_invalid.json.array":                                   {"array", "배열"},
	"error.import_invalid.json.object":                                  {"object", "객체"},
	"error.import_invalid.json.string":                                  {"string", "문자열"},
	"error.import_invalid.json.number":                                  {"number", "숫자"},
	"error.import_invalid.json.bool":                                    {"true or false", "참/거짓"},
	"error.import_invalid.case.conversation_check.id_length":            {"The id of conversation {n} must be 1 to 64 characters long.", "{n}번째 대화의 id는 1~64자여야 합니다."},
	"error.import_invalid.case.conversation_check.id_letters":           {"The id of conversation {n} ({id}) may hold only letters, digits, -, _, . and :.", "{n}번째 대화의 id({id})에는 영문자, 숫자, -, _, ., :만 쓸 수 있습니다."},
	"error.import_invalid.case.conversation_check.title_long":           {"The title of conversation {n} is {length} characters long; the limit is {limit}.", "{n}번째 대화의 제목이 {length}자입니다. {limit}자까지 가져올 수 있습니다."},
	"error.import_invalid.case.conversation_check.no_times":             {"Conversation {n} has no created_at or updated_at.", "{n}번째 대화에 created_at이나 updated_at 값이 없습니다."},
	"error.import_invalid.case.conversation_check.too_many":             {"Conversation {n} has {count} messages; the limit is {limit}.", "{n}번째 대화의 메시지가 {count}개입니다. {limit}개까지 가져올 수 있습니다."},
	"error.import_invalid.case.conversation_check.too_many_answers":     {"Conversation {n} has {count} messages with the other answers kept; the limit is {limit}.", "{n}번째 대화의 메시지가 보관된 다른 답변까지 {count}개입니다. {limit}개까지 가져올 수 있습니다."},
	"error.import_invalid.case.conversation_check.message_id_length":    {"In conversation {n}, the id of {where} must be 1 to 64 characters long.", "{n}번째 대화에서 {where}의 id는 1~64자여야 합니다."},
	"error.import_invalid.case.conversation_check.message_id_letters":   {"In conversation {n}, the id of {where} may hold only letters, digits, -, _, . and :.", "{n}번째 대화에서 {where}의 id에는 영문자, 숫자, -, _, ., :만 쓸 수 있습니다."},
	"error.import_invalid.case.conversation_check.id_taken":             {"In conversation {n}, {where} has the id {message_id}, which a message of conversation {other} has too.", "{n}번째 대화에서 {where}의 id({message_id})가 대화 {other}에 있는 메시지의 id와 같습니다."},
	"error.import_invalid.case.conversation_check.role":                 {"In conversation {n}, {where} has the role {role}: Wayfinder knows only user and assistant.", "{n}번째 대화에서 {where}의 역할(role)이 {role}입니다. Wayfinder는 user와 assistant만 압니다."},
	"error.import_invalid.case.conversation_check.status":               {"In conversation {n}, {where} has the status {status}, which Wayfinder does not know.", "{n}번째 대화에서 {where}의 상태(status)가 {status}입니다. Wayfinder가 모르는 값입니다."},
	"error.import_invalid.case.conversation_check.no_time":              {"In conversation {n}, {where} has no created_at.", "{n}번째 대화에서 {where}에 created_at 값이 없습니다."},
	"error.import_invalid.case.conversation_check.message_long":         {"In conversation {n}, {where} is {length} characters long; the limit is {limit}.", "{n}번째 대화에서 {where}의 길이가 {length}자입니다. {limit}자까지 가져올 수 있습니다."},
	"error.import_invalid.case.conversation_check.order":                {"In conversation {n}, the messages are not in the order of their ids (at message {msg}).", "{n}번째 대화의 메시지가 id 순서대로 있지 않습니다({msg}번째 메시지)."},
	"error.import_invalid.case.conversation_check.variants_of_question": {"In conversation {n}, message {msg} is not an answer, yet it has other answers (variants).", "{n}번째 대화에서 {msg}번째 메시지는 답변이 아닌데 다른 답변(variants)이 있습니다."},
	"error.import_invalid.case.conversation_check.variant_role":         {"In conversation {n}, {where} has the role {role}: an other answer is always assistant.", "{n}번째 대화에서 {where}의 역할(role)이 {role}입니다. 다른 답변의 역할은 assistant여야 합니다."},
	"error.import_invalid.case.conversation_check.variant_variants":     {"In conversation {n}, {where} has other answers of its own, which an other answer cannot have.", "{n}번째 대화에서 {where}에 또 다른 답변이 있습니다. 다른 답변에는 다른 답변이 있을 수 없습니다."},
	"error.import_invalid.case.conversation_check.variant_order":        {"In conversation {n}, the other answers of message {msg} are not oldest first.", "{n}번째 대화에서 {msg}번째 메시지의 다른 답변이 오래된 순서로 있지 않습니다."},
	"error.import_invalid.case.settings.temperature":                    {"The temperature of conversation {n} must be between 0 and {max}.", "{n}번째 대화의 온도는 0에서 {max} 사이여야 합니다."},
	"error.import_invalid.case.settings.context":                        {"The context size of conversation {n} must be between {min} and {max} tokens.", "{n}번째 대화의 컨텍스트 크기는 {min}에서 {max} 토큰 사이여야 합니다."},
	"error.import_invalid.case.settings.prompt_too_long":                {"The system prompt of conversation {n} is {length} characters long; the limit is {max}.", "{n}번째 대화의 시스템 프롬프트가 {length}자입니다. {max}자까지 쓸 수 있습니다."},
	"error.import_invalid.case.json_broken.char":                        {"The JSON is broken at byte {byte} of the file: {char} cannot come there.", "파일의 {byte}번째 바이트에서 JSON 형식이 깨져 있습니다. 그 자리에는 {char} 문자가 올 수 없습니다."},
	"error.import_invalid.case.json_broken.depth":                       {"The JSON of the file is nested too deeply (at byte {byte}).", "파일의 JSON이 너무 깊게 중첩되어 있습니다({byte}번째 바이트)."},
	"error.import_invalid.case.conversation_unreadable.time":            {"In conversation {n}, the time {value} is not in the form Wayfinder writes, such as 2026-01-01T09:30:00Z.", "{n}번째 대화의 시각 값이 Wayfinder가 쓰는 형식(예: 2026-01-01T09:30:00Z)이 아닙니다: {value}"},
}

// importWrap is the "import "<path>": " the Go side wraps a file's error
// in; the line already names the file.
var importWrap = regexp.MustCompile(`^import ".*?": `)

// reasonLine is why a file was not imported in language lang, as the
// window's failureText says it (frontend/src/knowledge/reasons.ts): the
// reason's sentence when there is one and its particulars fill it, else
// the backend's own sentence without its "import "<path>": ".
func reasonLine(errText string, r *api.FileReason, lang int) string {
	if r != nil && r.Code != "" {
		key := "knowledge.reason." + r.Code
		if r.Code == "pdf_limit" {
			key = "knowledge.reason.pdf_limit." + r.Limit
		}
		if r.Code == "json_invalid" && r.Line == 0 {
			key = "knowledge.reason.json_invalid_somewhere"
		}
		if _, ok := reasonText[key+".more"]; r.More && ok {
			key += ".more"
		}
		if _, ok := reasonText[key+".one"]; r.Count == 1 && ok {
			key += ".one"
		}
		if words, ok := reasonText[key]; ok {
			text, all := filled(words[lang], map[string]string{
				"page": strconv.Itoa(r.Page), "max": groupedDigits(r.Max), "line": strconv.FormatInt(r.Line, 10),
				"count": grouped(int(r.Count)), "lines": r.Lines, "target": shownPath(r.Target),
			})
			if all {
				return text
			}
		}
	}
	return importWrap.ReplaceAllString(errText, "")
}

// cliHintText is what to do, where the window's words point at its own
// buttons ("choose the folder with Choose…"): the command line's way.
var cliHintText = map[string][2]string{
	"error.folder_not_found.hint": {"Check the path, and give the folder's full path: `wayfinder folders add ~/Documents`.", "경로를 확인하고 폴더의 전체 경로를 적으세요: `wayfinder folders add ~/Documents`"},
	"error.invalid_input.case.ollama_rejected.hint": {"Check the chat model (`wayfinder doctor` names the one in effect; --model chooses another): it must be one that chats, not an embedding model; updating Ollama may help.",
		"대화 모델을 확인하세요(`wayfinder doctor`가 지금 쓰는 모델을 알려 주고, --model로 다른 모델을 고릅니다). 임베딩 모델이 아니라 대화하는 모델이어야 합니다. Ollama를 업데이트하면 나아질 수도 있습니다."},
	// The window's hints for these point at its Settings; a terminal has
	// flags, environment variables and commands instead.
	"error.ollama_unreachable.advice": {"Start Ollama (run `ollama serve`, or open the Ollama app); if it is not installed, get it from https://ollama.com/download. If Ollama runs elsewhere, give its address with --ollama-host http://HOST:11434 or the OLLAMA_HOST environment variable; `wayfinder doctor` checks it.",
		"Ollama를 실행하세요(`ollama serve`를 실행하거나 Ollama 앱을 여세요). 설치되어 있지 않다면 https://ollama.com/download 에서 받으세요. Ollama가 다른 컴퓨터에서 실행 중이면 --ollama-host http://HOST:11434나 OLLAMA_HOST 환경 변수로 주소를 알려 주세요. `wayfinder doctor`로 확인할 수 있습니다."},
	"error.model_missing.hint": {"Run `ollama pull {model}`, or choose a model you have with --model (--embed-model for embeddings); `ollama list` shows them.",
		"`ollama pull {model}` 명령을 실행하거나, 이미 있는 모델을 --model(임베딩은 --embed-model)로 고르세요. `ollama list`가 있는 모델을 보여 줍니다."},
	"error.model_no_tools.advice": {"Run with --model set to a chat model that can use tools, for example `ollama pull llama3.2:3b`, then --model llama3.2:3b; `wayfinder doctor` says what each model can do.",
		"도구를 쓸 수 있는 채팅 모델을 --model로 고르세요. 예: `ollama pull llama3.2:3b` 뒤에 --model llama3.2:3b. `wayfinder doctor`가 모델마다 할 수 있는 것을 알려 줍니다."},
	"error.model_out_of_memory.advice": {"Run with a smaller chat model (--model), or name one with --fallback-model that answers when this one cannot run.",
		"더 작은 채팅 모델을 --model로 고르거나, 이 모델을 실행할 수 없을 때 답할 모델을 --fallback-model로 지정하세요."},
	"error.folder_not_granted.hint": {"`wayfinder folders list` shows the folders Wayfinder may read; `wayfinder folders add PATH` grants one.",
		"`wayfinder folders list`가 읽어도 되는 폴더를 보여 주고, `wayfinder folders add 경로`로 폴더를 허용합니다."},
	// What to do when an error's own hint points at the window and the
	// command line has no words of its own for it (windowHint).
	"report.doctor": {"Run `wayfinder doctor` to check Ollama, the models and the data folder; --ollama-host (or OLLAMA_HOST), --model and --embed-model change them for one run.",
		"`wayfinder doctor`로 Ollama, 모델, 데이터 폴더를 확인하세요. --ollama-host(또는 OLLAMA_HOST), --model, --embed-model로 한 번 실행할 때만 바꿀 수 있습니다."},
	"error.import_not_export.hint": {"Import a JSON file made by `wayfinder export --format json` or by the app's Export; Markdown exports are for reading and cannot be imported.",
		"`wayfinder export --format json`이나 앱의 내보내기로 만든 JSON 파일을 가져오세요. Markdown 내보내기는 읽기용이라 가져올 수 없습니다."},
	"error.import_invalid.advice": {"Nothing was imported. Export the conversations again, or correct the file where the message says.",
		"대화를 다시 내보내거나, 메시지가 가리키는 곳을 고치세요."},
}

// errorWords is an error's sentence and what to do about it in language
// lang (an invalid input by its case): errorText's detail when it has the code and Args fill it; in
// Korean else its title, the backend's English words after it as the
// cause; its hint or advice when they fill. Anything else stays the
// backend's English Message and Hint.
func errorWords(info api.ErrorInfo, lang int) (message, hint string) {
	message, hint = info.Message, info.Hint
	args := make(map[string]string, len(info.Args))
	for k, v := range info.Args {
		if v != "" { // an empty particular is a missing one
			args[k] = v
		}
	}
	key := "error." + string(info.Code)
	// An invalid input is worded by its case where it has one ("Ollama
	// refused the request"), as the window words it.
	if c := info.Args["case"]; info.Code == api.ErrInvalidInput && c != "" {
		if _, ok := errorText["error.invalid_input.case."+c]; ok {
			key = "error.invalid_input.case." + c
		}
	}
	worded := false
	if words, ok := errorText[key+".detail"]; ok {
		if text, all := filled(words[lang], args); all {
			message, worded = text, true
		}
	}
	// An error of another code with a case says its particulars after its
	// title ("이 대화 내보내기 파일은 …. 파일의 1번째 바이트에서 …"), the
	// raw cause in brackets after them.
	if c := info.Args["case"]; !worded && info.Code != api.ErrInvalidInput && c != "" {
		title, okTitle := errorText[key]
		if info.Code == api.ErrImportInvalid {
			importParticulars(args, lang)
		}
		words, ok := errorText[key+".case."+c]
		// A case with a check says which of its checks failed, where
		// there are words for it.
		if check, okCheck := errorText[key+".case."+c+"."+args["check"]]; okCheck && args["check"] != "" {
			if _, all := filled(check[lang], args); all {
				words, ok = check, true
			}
		}
		if ok && okTitle {
			if text, all := filled(words[lang], args); all {
				message, worded = title[lang]+" "+text, true
				if args["reason"] != "" {
					message += " (" + args["reason"] + ")"
				}
			}
		}
	}
	if title, ok := errorText[key]; ok && !worded && lang == 1 {
		message = title[lang]
		if info.Message != "" {
			message += " (" + info.Message + ")"
		}
	}
	for _, k := range []string{".hint", ".advice"} {
		words, ok := cliHintText[key+k]
		if !ok {
			words, ok = errorText[key+k]
		}
		if ok {
			if text, all := filled(words[lang], args); all {
				hint = text
			}
			break
		}
	}
	if windowWords.MatchString(hint) {
		hint = cliHintText["report.doctor"][lang]
	}
	return message, hint
}

// windowWords finds a hint that sends the person to the window (its
// Settings, a button) where a terminal has none: errorWords says
// "report.doctor" instead, so that no code, worded or not, leaves the
// command line pointing nowhere.
var windowWords = regexp.MustCompile(`Settings|in the window|설정 화면|설정에서|설정 ›|설정 →|설정이나|창의 |창에서`)

// importParticulars words the particulars of a refused import that are
// words themselves, in language lang: where in a conversation (msg, and
// variant for an other answer) as "where", and the kinds of JSON value
// (want, got) — as the window's importParticulars (frontend/src/lib/errors.ts).
func importParticulars(args map[string]string, lang int) {
	if args["msg"] != "" && args["where"] == "" {
		key := "error.import_invalid.where.message"
		if args["variant"] != "" {
			key = "error.import_invalid.where.variant"
		}
		if where, all := filled(errorText[key][lang], args); all {
			args["where"] = where
		}
	}
	for _, k := range []string{"want", "got"} {
		kind, rest, _ := strings.Cut(args[k], " ")
		if words, ok := errorText["error.import_invalid.json."+kind]; ok && kind != "" {
			args[k] = strings.TrimSpace(words[lang] + " " + rest)
		}
	}
}

// groupedDigits is a limit written as a count ("2000000") with its
// thousands set apart, as the window shows it; other limits ("384 MB")
// are left as they are.
func groupedDigits(s string) string {
	if n, err := strconv.Atoi(s); err == nil && n >= 0 {
		return grouped(n)
	}
	return s
}
