package sqlitesaver_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"

	"github.com/wayfinder-app/wayfinder/backend/graph"
	"github.com/wayfinder-app/wayfinder/backend/graph/sqlitesaver"
)

type crashState struct {
	Log []string `json:"log"`
}

var crashLog = graph.Append("log", func(s *crashState) *[]string { return &s.Log })

// crashGraph: prep, then fast and slow in parallel, then done. slow is the
// node the process dies in; the hooks let each process decide what it does.
func crashGraph(t testing.TB, s graph.Checkpointer, counts map[string]*atomic.Int32, slow graph.NodeFunc[crashState]) *graph.Graph[crashState] {
	count := func(name string) graph.NodeFunc[crashState] {
		counts[name] = &atomic.Int32{}
		return func(_ context.Context, _ crashState, _ *graph.Runtime) (graph.Update, error) {
			counts[name].Add(1)
			return graph.Update{crashLog.Add(name)}, nil
		}
	}
	b := graph.New(crashLog)
	b.AddNode("prep", count("prep")).AddNode("fast", count("fast")).AddNode("slow", slow).AddNode("done", count("done"))
	b.AddEdge(graph.Start, "prep").AddEdge("prep", "fast").AddEdge("prep", "slow")
	b.AddEdge("fast", "done").AddEdge("slow", "done")
	g, err := b.Compile(graph.WithCheckpointer(s))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

const childEnv = "WAYFINDER_GRAPH_CRASH_DIR"

// TestKillMidStep kills a process with SIGKILL while one of two parallel
// nodes is still running, then resumes the thread in this process: only the
// unfinished node runs again.
func TestKillMidStep(t *testing.T) {
	if dir := os.Getenv(childEnv); dir != "" {
		runCrashChild(t, dir)
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillMidStep$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(dir, "ready")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("child never reached the slow node")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var exitErr *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &exitErr) {
		t.Fatalf("child exit: %v, want killed", err)
	}

	s, err := sqlitesaver.Open(filepath.Join(dir, "cp.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	counts := map[string]*atomic.Int32{}
	var slowRuns atomic.Int32
	g := crashGraph(t, s, counts, func(_ context.Context, _ crashState, _ *graph.Runtime) (graph.Update, error) {
		slowRuns.Add(1)
		return graph.Update{crashLog.Add("slow")}, nil
	})
	ctx := t.Context()
	snap, err := g.GetState(ctx, graph.Config{ThreadID: "crash"})
	if err != nil {
		t.Fatal(err)
	}
	// The newest state includes fast's saved writes; only slow is left to run.
	if !slices.Equal(snap.Next, []string{"slow"}) || !slices.Equal(snap.Values.Log, []string{"prep", "fast"}) ||
		len(snap.Tasks) != 2 || !snap.Tasks[0].Done || snap.Tasks[1].Done {
		t.Fatalf("after the kill: next %v, log %v, tasks %+v", snap.Next, snap.Values.Log, snap.Tasks)
	}
	res, err := g.Resume(ctx, graph.Config{ThreadID: "crash"}, graph.Command{})
	if err != nil {
		t.Fatal(err)
	}
	if counts["prep"].Load() != 0 || counts["fast"].Load() != 0 || slowRuns.Load() != 1 || counts["done"].Load() != 1 {
		t.Fatalf("runs after restart: prep=%d fast=%d slow=%d done=%d, want 0 0 1 1",
			counts["prep"].Load(), counts["fast"].Load(), slowRuns.Load(), counts["done"].Load())
	}
	if want := []string{"prep", "fast", "slow", "done"}; !slices.Equal(res.State.Log, want) {
		t.Fatalf("log = %v, want %v", res.State.Log, want)
	}
}

// runCrashChild is the process that gets killed: its slow node waits until
// fast's writes are committed, says so, and hangs.
func runCrashChild(t *testing.T, dir string) {
	s, err := sqlitesaver.Open(filepath.Join(dir, "cp.db"))
	if err != nil {
		t.Fatal(err)
	}
	probe, err := sqlitesaver.Open(filepath.Join(dir, "cp.db"))
	if err != nil {
		t.Fatal(err)
	}
	g := crashGraph(t, s, map[string]*atomic.Int32{}, func(ctx context.Context, _ crashState, _ *graph.Runtime) (graph.Update, error) {
		for {
			saved, err := probe.Get(ctx, "crash", "")
			if err == nil && slices.ContainsFunc(saved.Writes, func(w graph.PendingWrite) bool { return w.Channel == "__done__" }) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		if err := os.WriteFile(filepath.Join(dir, "ready"), nil, 0o600); err != nil {
			return nil, err
		}
		select {} // killed here, mid-step
	})
	g.Invoke(t.Context(), graph.Config{ThreadID: "crash"}, nil)
	t.Fatal("child survived")
}

func TestOpenUsesWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cp.db")
	s, err := sqlitesaver.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := gorm.Open(sqlite.Open(path), &gorm.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := db.Raw("PRAGMA journal_mode").Scan(&mode).Error; err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q (%v), want wal", mode, err)
	}
	sqlDB, _ := db.DB()
	sqlDB.Close()
}
