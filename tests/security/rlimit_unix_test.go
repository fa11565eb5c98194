//go:build unix

package security

import (
	"encoding/json"
	"fmt"
	"os"
	"syscall"
)

// limitEnv asks this test binary to act as a helper process: set the open
// file limit (soft and hard, as `ulimit -n` in a fresh shell would) and
// replace itself with the command in the variable (JSON: limit, argv).
// Lowering a limit needs no privilege, and exec keeps it.
const limitEnv = "WAYFINDER_SECURITY_EXEC_NOFILE"

func execWithFileLimit() {
	v := os.Getenv(limitEnv)
	if v == "" {
		return
	}
	var req struct {
		Limit uint64
		Argv  []string
	}
	if err := json.Unmarshal([]byte(v), &req); err != nil || len(req.Argv) == 0 {
		fmt.Fprintln(os.Stderr, "bad", limitEnv, err)
		os.Exit(2)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: req.Limit, Max: req.Limit}); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		os.Exit(2)
	}
	os.Unsetenv(limitEnv)
	err := syscall.Exec(req.Argv[0], req.Argv, os.Environ())
	fmt.Fprintln(os.Stderr, "exec:", err)
	os.Exit(2)
}

// withFileLimit returns serveOptions.wrap and the environment that make
// startServe run serve under an open-file limit of n.
func withFileLimit(n uint64) func(argv []string) (string, []string, []string) {
	return func(argv []string) (string, []string, []string) {
		b, _ := json.Marshal(struct {
			Limit uint64
			Argv  []string
		}{n, argv})
		self, _ := os.Executable()
		return self, []string{"-test.run=^$"}, append(os.Environ(), limitEnv+"="+string(b))
	}
}
