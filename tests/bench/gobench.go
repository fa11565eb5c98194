package main

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// goBench runs one existing `go test -bench` benchmark and returns the
// metrics of its result line by unit ("nDCG@10", "pages/s", "ns/op").
func goBench(ctx context.Context, root, pkg, name, benchtime string) (map[string]float64, error) {
	cmd := exec.CommandContext(ctx, "go", "test", "-run", "^$", "-bench", "^"+name+"$", "-benchtime", benchtime, pkg)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("go test -bench %s %s: %w\n%s", name, pkg, err, out)
	}
	if m := parseBench(string(out), name); m != nil {
		return m, nil
	}
	return nil, fmt.Errorf("go test -bench %s %s: no result line (skipped?)\n%s", name, pkg, out)
}

// parseBench finds name's result line in `go test -bench` output and returns
// its metrics by unit; nil when there is none (not run, or skipped).
func parseBench(out, name string) map[string]float64 {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || (f[0] != name && !strings.HasPrefix(f[0], name+"-")) {
			continue
		}
		metrics := map[string]float64{}
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				metrics[f[i+1]] = v
			}
		}
		return metrics
	}
	return nil
}
