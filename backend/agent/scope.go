package agent

import "regexp"

// The built-in catalog of AI tools is searched only where tools are being
// recommended: the recommendation loop, or a question that asks for a tool.
// A question about the person's own documents never gets catalog entries
// among its sources (issue 17: a leave-policy question cited Tabnine).

var (
	// toolWordRe names a tool, app or service.
	toolWordRe = regexp.MustCompile(`(?i)\b(ai|tools?|apps?|applications?|software|services?|programs?|platforms?|extensions?|plugins?)\b|도구|툴|앱|어플|서비스|프로그램|소프트웨어|플랫폼|사이트|확장`)
	// askToolRe asks which one to use.
	askToolRe = regexp.MustCompile(`(?i)\b(recommend\w*|suggest\w*|which|what|best|good|alternatives?|should i use|is there an?)\b|추천|어떤|무슨|뭐가|뭘|뭐 쓰|좋은|괜찮은|쓸만|쓸 만|있을까|있나요|있어|알려`)
	// ownDocsRe points at the person's own files.
	ownDocsRe = regexp.MustCompile(`(?i)\b(my|our) (documents?|files?|notes?|handbook|policy|policies|contract|report|pdf)\b|\b(in|from) the (documents?|files?|handbook|pdf)\b|내 (문서|파일|자료|메모)|우리 (회사|팀)? ?(문서|파일|자료|규정|정책)|문서에서|파일에서|자료에서|규정에|정책에`)
)

// asksForTool reports whether a message asks which AI tool or service to
// use, so the catalog may answer it; a message about the person's own
// documents does not, even when it names a tool.
func asksForTool(text string) bool {
	return toolWordRe.MatchString(text) && askToolRe.MatchString(text) && !ownDocsRe.MatchString(text)
}
