package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/knowledgetest"
)

// kbRSSBaseline is main when the work on issue 18 began: the figures of
// the knowledge base's memory are reported beside that build's, measured
// in the same run.
const kbRSSBaseline = "34526c5"

// noOllama is an address where nothing listens: imports and searches run
// keyword-only, as they do while no embedding model answers.
const noOllama = "http://127.0.0.1:1"

// procRun is one command of the real binary: its peak RSS and wall time.
type procRun struct {
	peakKiB int64
	wall    time.Duration
}

// runCLI runs the binary and reads its peak RSS from the kernel's rusage.
// It goes through a fresh copy of this program (rssLauncher): on Linux a
// child's peak RSS starts at its parent's size when it was started, and
// this process holds the test corpus.
func runCLI(ctx context.Context, bin, dataDir string, args ...string) (procRun, error) {
	self, err := os.Executable()
	if err != nil {
		return procRun{}, err
	}
	result, err := os.CreateTemp("", "wayfinder-bench-rss-")
	if err != nil {
		return procRun{}, err
	}
	result.Close()
	defer os.Remove(result.Name())
	full := append([]string{"-rss-run", result.Name(), "--", bin, "--data-dir", dataDir, "--ollama-host", noOllama}, args...)
	cmd := exec.CommandContext(ctx, self, full...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	var r procRun
	if b, rerr := os.ReadFile(result.Name()); rerr == nil {
		var wall int64
		_, _ = fmt.Sscan(string(b), &r.peakKiB, &wall)
		r.wall = time.Duration(wall)
	}
	if err != nil {
		msg := out.String()
		if len(msg) > 400 {
			msg = msg[len(msg)-400:]
		}
		return r, fmt.Errorf("%s %s: %w: %s", filepath.Base(bin), strings.Join(args, " "), err, msg)
	}
	return r, nil
}

// rssLauncher runs a command (args) and writes its peak RSS in KiB and its
// wall time in nanoseconds to the file at result; it exits with the
// command's status.
func rssLauncher(result string, args []string) int {
	if len(args) == 0 {
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var peak int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak = ru.Maxrss // KiB on Linux
	}
	if werr := os.WriteFile(result, fmt.Appendf(nil, "%d %d", peak, wall.Nanoseconds()), 0o600); werr != nil {
		fmt.Fprintln(os.Stderr, werr)
		return 1
	}
	return cmd.ProcessState.ExitCode()
}

// kbRSS are the figures of one build.
type kbRSS struct {
	idle, importPeak, searchPeak, textPeak procRun
}

// measureKBRSS imports the records with bin, then searches them by
// keywords (the largest peak of three queries), and imports the text file
// into a fresh data folder; idle is `kb list` on an empty data folder,
// what the process needs before any file.
func measureKBRSS(ctx context.Context, bin, records, text string, queries []string) (kbRSS, error) {
	var res kbRSS
	dir, err := os.MkdirTemp("", "wayfinder-bench-kbrss-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	lib := filepath.Join(dir, "library")
	if res.importPeak, err = runCLI(ctx, bin, lib, "kb", "import", records); err != nil {
		return res, err
	}
	if res.idle, err = runCLI(ctx, bin, filepath.Join(dir, "empty"), "kb", "list"); err != nil {
		return res, err
	}
	if _, err = runCLI(ctx, bin, lib, "kb", "search", queries[0]); err != nil { // a first run may migrate or rebuild
		return res, err
	}
	for _, q := range queries[:3] {
		r, err := runCLI(ctx, bin, lib, "kb", "search", q)
		if err != nil {
			return res, err
		}
		if r.peakKiB > res.searchPeak.peakKiB {
			res.searchPeak = r
		}
	}
	if text != "" {
		if res.textPeak, err = runCLI(ctx, bin, filepath.Join(dir, "text"), "kb", "import", text); err != nil {
			return res, err
		}
	}
	return res, nil
}

// buildBaseline builds the app at rev in a temporary git worktree (with
// this checkout's frontend/dist, which the binary embeds) and returns the
// binary and a function that removes it all.
func buildBaseline(ctx context.Context, root, rev string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "wayfinder-bench-baseline-")
	if err != nil {
		return "", nil, err
	}
	wt := filepath.Join(dir, "src")
	cleanup := func() {
		rm := exec.Command("git", "worktree", "remove", "--force", wt)
		rm.Dir = root
		_ = rm.Run()
		os.RemoveAll(dir)
	}
	git := exec.CommandContext(ctx, "git", "worktree", "add", "--detach", wt, rev)
	git.Dir = root
	if out, err := git.CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("git worktree add %s: %w: %s", rev, err, out)
	}
	if err := os.CopyFS(filepath.Join(wt, "frontend", "dist"), os.DirFS(filepath.Join(root, "frontend", "dist"))); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("copy frontend/dist (run make build first): %w", err)
	}
	bin := filepath.Join(dir, "wayfinder-"+rev)
	build := exec.CommandContext(ctx, "go", "build", "-tags", "desktop,production,webkit2_41", "-trimpath", "-ldflags", "-s -w", "-o", bin, ".")
	build.Dir = wt
	if out, err := build.CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("build %s: %w: %s", rev, err, out)
	}
	return bin, cleanup, nil
}

// writeText writes about mb megabytes of Korean and English paragraphs.
func writeText(path string, mb int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	para := strings.Repeat("한국어 문서를 읽습니다. Wayfinder reads a very large text file in blocks. ", 12) + "\n\n"
	for written := 0; written < mb<<20; written += len(para) {
		if _, err := f.WriteString(para); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// kbRSSRows measures the knowledge base's memory through the command line,
// this build beside the baseline, and adds the rows.
func kbRSSRows(ctx context.Context, o options, t *table, log func(string, ...any)) {
	app := filepath.Join(o.root, o.app)
	if _, err := os.Stat(app); err != nil {
		t.fail("peak RSS of kb import and kb search", fmt.Errorf("%s missing (run make build): %w", app, err))
		return
	}
	dir, err := os.MkdirTemp("", "wayfinder-bench-kbdata-")
	if err != nil {
		t.fail("peak RSS of kb import and kb search", err)
		return
	}
	defer os.RemoveAll(dir)
	records := filepath.Join(dir, "records.jsonl")
	queries, err := knowledgetest.WriteCorpus(records, o.kbChunks, 3)
	if err != nil {
		t.fail("peak RSS of kb import and kb search", err)
		return
	}
	text := ""
	if o.kbTextMB > 0 {
		text = filepath.Join(dir, "large.txt")
		if err := writeText(text, o.kbTextMB); err != nil {
			t.fail("peak RSS of kb import and kb search", err)
			return
		}
	}
	log("kb import of %d records and keyword-only kb search: this build", o.kbChunks)
	now, err := measureKBRSS(ctx, app, records, text, queries)
	if err != nil {
		t.fail("peak RSS of kb import and kb search", err)
		return
	}
	var base kbRSS
	baseErr := errors.New("no baseline asked for")
	if o.kbBaseline != "" {
		log("the same with the build of %s (building it in a temporary worktree)", o.kbBaseline)
		var bin string
		var cleanup func()
		if bin, cleanup, baseErr = buildBaseline(ctx, o.root, o.kbBaseline); baseErr == nil {
			base, baseErr = measureKBRSS(ctx, bin, records, text, queries)
			cleanup()
		}
	}
	ref := func(r procRun, goal string) string {
		parts := []string{}
		if baseErr == nil {
			parts = append(parts, fmt.Sprintf("%s at %s (%s)", mib(int(r.peakKiB)), o.kbBaseline, r.wall.Round(100*time.Millisecond)))
		} else {
			parts = append(parts, "baseline not measured: "+baseErr.Error())
		}
		if goal != "" {
			parts = append(parts, goal)
		}
		return strings.Join(parts, "; ")
	}
	k := o.kbChunks / 1000
	t.add(fmt.Sprintf("peak RSS of `kb import` of %dk chunks (JSON Lines, keyword only)", k),
		fmt.Sprintf("%s (%s)", mib(int(now.importPeak.peakKiB)), now.importPeak.wall.Round(100*time.Millisecond)),
		ref(base.importPeak, "goal ≤ 400 MiB"), verdict(now.importPeak.peakKiB <= 400<<10))
	t.add(fmt.Sprintf("peak RSS of a keyword-only `kb search` at %dk chunks (largest of 3 queries)", k),
		fmt.Sprintf("%s (%s)", mib(int(now.searchPeak.peakKiB)), now.searchPeak.wall.Round(100*time.Millisecond)),
		ref(base.searchPeak, "goal ≤ 150 MiB"), verdict(now.searchPeak.peakKiB <= 150<<10))
	t.add("peak RSS of `kb list` on an empty data folder (the idle process)",
		mib(int(now.idle.peakKiB)), ref(base.idle, ""), "")
	if text != "" {
		above := now.textPeak.peakKiB - now.idle.peakKiB
		t.add(fmt.Sprintf("peak RSS of `kb import` of a %d MB text file", o.kbTextMB),
			fmt.Sprintf("%s, %s above `kb list` (%s)", mib(int(now.textPeak.peakKiB)), mib(int(above)), now.textPeak.wall.Round(100*time.Millisecond)),
			ref(base.textPeak, "goal ≤ 512 MiB above idle"), verdict(above <= 512<<10))
	}
}
