package knowledgetest

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// StatusKB is a kB field of /proc/self/status (VmRSS, VmHWM: the peak):
// the memory budgets of an import are the process's resident memory, which
// the Go heap figures do not show (PDFium's WebAssembly memory, the
// runtime's own, pages not yet returned).
func StatusKB(t testing.TB, field string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}
