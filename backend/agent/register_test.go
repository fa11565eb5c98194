package agent

import (
	"regexp"
	"testing"
)

// The assistant talks in the chat in 해요체 ("못했어요", "내용이에요"),
// while the window's own notices are 합니다체 (frontend/src/i18n/
// register.test.ts). One line of the assistant's that ends a sentence in
// -습니다/-입니다 beside its -어요 reads as two speakers; the lines without a
// key in the window's catalog (the guards, a plan's problem) are held here.
func TestTheAssistantSpeaksOneRegister(t *testing.T) {
	hamnida := regexp.MustCompile(`[가-힣]*니다([.!…,:;)(\]\s"”’—]|$)`)
	for name, p := range map[string]phrases{
		"msgEmpty": msgEmpty, "msgOutOfScope": msgOutOfScope, "msgPlanIntro": msgPlanIntro, "msgPlanFallback": msgPlanFallback, "msgPlanRecovered": msgPlanRecovered,
		"msgCancelled": msgCancelled, "msgGuard": msgGuard, "msgGuardNothing": msgGuardNothing, "msgRecGuard": msgRecGuard,
		"msgEditProblem": msgEditProblem, "msgToolAsk": msgToolAsk, "msgToolAgain": msgToolAgain, "msgToolStopped": msgToolStopped, "msgPlanAgain": msgPlanAgain,
		"msgPlanFailed": msgPlanFailed, "msgPlanStopped": msgPlanStopped, "msgPlanStoppedNone": msgPlanStoppedNone, "msgPlanStoppedGuide": msgPlanStoppedGuide,
		"msgNoAnswer": msgNoAnswer, "msgRemembered": msgRemembered, "msgRememberFailed": msgRememberFailed,
	} {
		if m := hamnida.FindString(p.ko); m != "" {
			t.Errorf("%s ends a sentence in 합니다체 (%q): %s", name, m, p.ko)
		}
	}
}
