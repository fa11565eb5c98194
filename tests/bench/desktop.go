package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// windowResult is one app's window measured under Xvfb.
type windowResult struct {
	Name string `json:"name"`
	// Startup is from exec to the "frontend ready" log line: the page has
	// mounted and made a round trip through a bound Go method.
	Startups []time.Duration `json:"startups"`
	// RSS after idling, in KiB, by process name (the app, WebKitWebProcess,
	// WebKitNetworkProcess), summed over the processes with that name.
	RSS   map[string]int `json:"rss_kib"`
	Error string         `json:"error,omitempty"`
}

func (w windowResult) median() time.Duration {
	s := slices.Clone(w.Startups)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func (w windowResult) totalRSS() int {
	n := 0
	for _, v := range w.RSS {
		n += v
	}
	return n
}

// measureWindows runs this program again under xvfb-run to measure both
// windows in one X server, one after the other.
func measureWindows(ctx context.Context, specs []windowSpec, runs int, idle time.Duration) ([]windowResult, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(specs)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "xvfb-run", "-a", "-s", "-screen 0 1280x860x24",
		self, "-window-worker", string(raw), "-window-runs", strconv.Itoa(runs), "-window-idle", idle.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("xvfb-run: %w\n%s", err, stderr.String())
	}
	var res []windowResult
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("window worker output: %w\n%s\n%s", err, out, stderr.String())
	}
	return res, nil
}

// windowSpec says how to start one app.
type windowSpec struct {
	Name string   `json:"name"`
	Bin  string   `json:"bin"`
	Args []string `json:"args"`
}

// windowWorker runs inside Xvfb: it starts each app runs times, waits for
// "frontend ready", lets it idle, reads the memory of its processes, and
// prints the results as JSON.
func windowWorker(specJSON string, runs int, idle time.Duration) error {
	var specs []windowSpec
	if err := json.Unmarshal([]byte(specJSON), &specs); err != nil {
		return err
	}
	var results []windowResult
	for _, sp := range specs {
		res := windowResult{Name: sp.Name}
		for i := range runs {
			d, rss, err := openWindow(sp, idle, i == runs-1)
			if err != nil {
				res.Error = err.Error()
				break
			}
			res.Startups = append(res.Startups, d)
			if rss != nil {
				res.RSS = rss
			}
		}
		results = append(results, res)
	}
	return json.NewEncoder(os.Stdout).Encode(results)
}

// openWindow starts one app and returns its time to ready and, when
// measure is set, the memory of its process tree after idling.
func openWindow(sp windowSpec, idle time.Duration, measure bool) (time.Duration, map[string]int, error) {
	cmd := exec.Command(sp.Bin, sp.Args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, nil, err
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	start := time.Now()
	if err := cmd.Start(); err != nil {
		pw.Close()
		pr.Close()
		return 0, nil, err
	}
	pw.Close()
	ready := make(chan time.Duration, 1)
	var logMu sync.Mutex
	var logText strings.Builder
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			logMu.Lock()
			logText.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if strings.Contains(sc.Text(), "frontend ready") {
				ready <- time.Since(start)
			}
		}
	}()
	stop := func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
		pr.Close()
	}
	var d time.Duration
	select {
	case d = <-ready:
	case <-time.After(60 * time.Second):
		stop()
		logMu.Lock()
		defer logMu.Unlock()
		return 0, nil, fmt.Errorf("%s: no \"frontend ready\" within 60 s\n%s", sp.Name, logText.String())
	}
	var rss map[string]int
	if measure {
		time.Sleep(idle)
		rss = treeRSS(cmd.Process.Pid)
	}
	stop()
	return d, rss, nil
}

// treeRSS sums VmRSS (KiB) over pid and its descendants, by process name;
// the app's own process is reported as "app".
func treeRSS(root int) map[string]int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The fields after the parenthesised name: state, ppid, ...
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 {
			if ppid, err := strconv.Atoi(f[1]); err == nil {
				children[ppid] = append(children[ppid], pid)
			}
		}
	}
	out := map[string]int{}
	var walk func(pid int, top bool)
	walk = func(pid int, top bool) {
		name := "app"
		if !top {
			comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
			name = strings.TrimSpace(string(comm))
		}
		out[name] += vmRSS(pid)
		for _, c := range children[pid] {
			walk(c, false)
		}
	}
	walk(root, true)
	return out
}

func vmRSS(pid int) int {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				n, _ := strconv.Atoi(f[0])
				return n
			}
		}
	}
	return 0
}
