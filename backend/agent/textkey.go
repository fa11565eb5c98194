package agent

import "strings"

// The keys of the lines Wayfinder writes itself (api.TurnResult.TextKey).
// The window keeps its own words for each under "app.<key>" in its
// language files, so a line written in English reads in Korean after the
// person switches, and a plan's introduction can stop asking once the plan
// was decided. A line that is not one of these (the model's words) has no
// key and is shown as stored.
// TextKeyPlanRecovered is the key of a plan recovered from the planner's
// broken replies (keyPlanRecovered): the model's words read back, some
// steps possibly missing, so `wayfinder ask --approve` puts it to the
// person instead of approving it unseen.
const TextKeyPlanRecovered = keyPlanRecovered

const (
	keyPlanIntro    = "plan_intro"
	keyPlanFallback = "plan_fallback"
	// A plan recovered from the planner's broken replies.
	keyPlanRecovered = "plan_recovered"
	keyPlanAgain     = "plan_again"
	keyPlanFailed    = "plan_failed"
	// A plan the person stopped while it ran: some steps done, none, or
	// all of them (the guide was cut).
	keyPlanStopped      = "plan_stopped"
	keyPlanStoppedNone  = "plan_stopped_none"
	keyPlanStoppedGuide = "plan_stopped_guide"
	keyToolAsk          = "tool_ask"
	keyToolAgain        = "tool_again"
	keyToolStopped      = "tool_stopped"
	keyCancelled        = "cancelled"
	keyNoAnswer         = "no_answer"
	keyEmpty            = "empty"
	keyOutOfScope       = "out_of_scope"
	keyRemembered       = "remembered"
	keyRememberFail     = "remember_failed"
)

// lineKey is the key of a turn's final text when Wayfinder wrote it
// itself, with the words in its blank ("" when the model wrote it).
func lineKey(text, lang string) (string, map[string]string) {
	for key, p := range map[string]phrases{
		keyCancelled: msgCancelled, keyNoAnswer: msgNoAnswer, keyEmpty: msgEmpty, keyOutOfScope: msgOutOfScope, keyRememberFail: msgRememberFailed,
	} {
		if text == p.in(lang) {
			return key, nil
		}
	}
	// A line with one blank: what the person asked to be remembered.
	if pre, post, ok := strings.Cut(msgRemembered.in(lang), "%s"); ok &&
		len(text) >= len(pre)+len(post) && strings.HasPrefix(text, pre) && strings.HasSuffix(text, post) {
		return keyRemembered, map[string]string{"what": text[len(pre) : len(text)-len(post)]}
	}
	return "", nil
}

// Line is the line Wayfinder writes itself for key, in lang, with its
// blank filled from args: an export in English reads a line stored in
// Korean in English, as the window does. ok is false for a key it does
// not know or an argument the line needs and lacks (the stored text
// stands then).
func Line(key string, args map[string]string, lang string) (line string, ok bool) {
	fixed := map[string]phrases{
		keyPlanIntro: msgPlanIntro, keyPlanAgain: msgPlanAgain, keyPlanFailed: msgPlanFailed, keyCancelled: msgCancelled, keyNoAnswer: msgNoAnswer,
		keyEmpty: msgEmpty, keyOutOfScope: msgOutOfScope, keyRememberFail: msgRememberFailed,
		keyPlanStoppedNone: msgPlanStoppedNone, keyPlanStoppedGuide: msgPlanStoppedGuide,
	}
	if p, ok := fixed[key]; ok {
		return p.in(lang), true
	}
	blank := map[string]struct {
		p   phrases
		arg string
	}{keyToolAsk: {msgToolAsk, "tool"}, keyToolAgain: {msgToolAgain, "tool"}, keyToolStopped: {msgToolStopped, "tool"}, keyRemembered: {msgRemembered, "what"}}
	switch b, known := blank[key]; {
	case known:
		v, has := args[b.arg]
		if !has {
			return "", false
		}
		return strings.Replace(b.p.in(lang), "%s", v, 1), true
	case key == keyPlanStopped:
		// Two blanks, named as the window names them.
		done, hasDone := args["done"]
		left, hasLeft := args["left"]
		if !hasDone || !hasLeft {
			return "", false
		}
		return strings.NewReplacer("{done}", done, "{left}", left).Replace(msgPlanStopped.in(lang)), true
	case key == keyPlanFallback:
		// The note that the plan is the task as one step, then the
		// introduction (decide.go).
		return msgPlanFallback.in(lang) + " " + msgPlanIntro.in(lang), true
	case key == keyPlanRecovered:
		// The note that the plan was recovered, then the introduction.
		return msgPlanRecovered.in(lang) + " " + msgPlanIntro.in(lang), true
	}
	return "", false
}
