// Command bench writes Wayfinder's performance report (issue 7, item 8):
// every figure measured in one run on this machine, side by side with its
// reference or goal, as a Markdown table in artifacts/bench/REPORT.md,
// also printed. `make bench` runs it after building the desktop binary.
//
//	go run ./tests/bench [-app build/bin/wayfinder] [-out artifacts/bench/REPORT.md]
//
// Turn figures run the real chat service and agent against the fake
// Ollama in this process; retrieval quality and PDF speed run the
// knowledge packages' own benchmarks; the windows (Wayfinder and a Wails
// hello-world built in the same run, tests/bench/hello) open under Xvfb.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/llm/ollamatest"
	"github.com/wayfinder-app/wayfinder/tests/internal/world"
)

type options struct {
	root, out, app      string
	hybridChunks, dim   int
	windowRuns          int
	idle                time.Duration
	skipWindows, skipKB bool
	skipPackages        bool
	only                string
	kbChunks, kbTextMB  int
	kbBaseline          string
	speed               speedOptions
}

func main() {
	var o options
	worker := flag.String("window-worker", "", "internal: measure windows (JSON specs) inside Xvfb")
	workerRuns := flag.Int("window-runs", 3, "internal")
	workerIdle := flag.Duration("window-idle", 3*time.Second, "internal")
	flag.StringVar(&o.root, "root", ".", "the repository root")
	flag.StringVar(&o.out, "out", "artifacts/bench/REPORT.md", "where to write the report")
	flag.StringVar(&o.app, "app", "build/bin/wayfinder", "the desktop binary (make build)")
	flag.IntVar(&o.hybridChunks, "hybrid-chunks", 100_000, "chunks for the hybrid search latency")
	flag.IntVar(&o.dim, "hybrid-dim", 1024, "embedding dimensions (bge-m3: 1024)")
	flag.IntVar(&o.windowRuns, "window-runs-app", 3, "window starts per app (median reported)")
	flag.DurationVar(&o.idle, "idle", 3*time.Second, "idle time before reading memory")
	flag.BoolVar(&o.skipWindows, "skip-windows", false, "skip the desktop window measurements")
	flag.BoolVar(&o.skipKB, "skip-kb", false, "skip the knowledge base measurements")
	flag.BoolVar(&o.skipPackages, "skip-packages", false, "skip the package sizes (packages.go)")
	flag.StringVar(&o.only, "only", "", `measure one part only: "kb-rss" (the knowledge base's memory through the CLI), "hybrid" (hybrid search latency) or "speed" (the scenarios under a model server's latency)`)
	flag.StringVar(&o.speed.baseline, "speed-baseline", speedBaseline, `git revision whose serve mode is measured beside this build's in the speed section ("": none)`)
	flag.Float64Var(&o.speed.scale, "speed-scale", 0.25, "run the model server's modelled times this much faster on the wall clock (reported times are scaled back)")
	flag.StringVar(&o.speed.tokenizer, "tokenizer", "", "Qwen3's tokenizer.json (scripts/qwen-tokenizer.sh); default: an estimate")
	flag.StringVar(&o.speed.configs, "speed-configs", "", `model server set-ups to run, e.g. "gpu4,cpu1,2xgpu4" (default: cpu1,cpu4,gpu1,gpu4,2xgpu1,2xgpu4; 2x: two hosts, this build and the complex tasks only)`)
	flag.IntVar(&o.kbChunks, "kb-rss-chunks", 100_000, "records (one chunk each) imported for the knowledge base's memory")
	flag.IntVar(&o.kbTextMB, "kb-rss-text-mb", 200, "size of the text file imported for the memory of one large file (0: none)")
	flag.StringVar(&o.kbBaseline, "kb-rss-baseline", kbRSSBaseline, `git revision built and measured beside this one ("": none)`)
	rssRun := flag.String("rss-run", "", "internal: run the command after -- and write its peak RSS to this file")
	flag.Parse()
	if *rssRun != "" {
		os.Exit(rssLauncher(*rssRun, flag.Args()))
	}
	if *worker != "" {
		if err := windowWorker(*worker, *workerRuns, *workerIdle); err != nil {
			fmt.Fprintln(os.Stderr, "window worker:", err)
			os.Exit(1)
		}
		return
	}
	report, err := run(context.Background(), o)
	if report != "" {
		fmt.Print(report)
		if werr := write(o.out, report); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func write(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// table collects report rows.
type table struct{ rows [][4]string }

func (t *table) add(what, got, ref, verdict string) {
	t.rows = append(t.rows, [4]string{what, got, ref, verdict})
}

func (t *table) fail(what string, err error) {
	msg := strings.ReplaceAll(strings.SplitN(err.Error(), "\n", 2)[0], "|", "/")
	t.add(what, "not measured: "+msg, "", "✗")
}

func verdict(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// ms2 is for the sub-millisecond parts of a turn.
func ms2(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func mib(kib int) string { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }

func run(ctx context.Context, o options) (string, error) {
	begin := time.Now()
	t := &table{}
	log := func(format string, a ...any) { fmt.Fprintf(os.Stderr, "bench: "+format+"\n", a...) }
	if o.only == "kb-rss" {
		kbRSSRows(ctx, o, t, log)
		return t.report(begin), nil
	}
	if o.only == "hybrid" {
		hybridRow(ctx, o, t, log)
		return t.report(begin), nil
	}
	if o.only == "speed" {
		section, rep := speedSection(ctx, o, log)
		return t.report(begin) + section, writeReportJSON(o.out, rep, nil)
	}

	log("conversation context: prompt tokens per call at turns %v", contextTurns)
	if rows, err := contextCost(ctx); err != nil {
		t.fail("prompt tokens per call in a conversation", err)
	} else {
		addContextRows(t, rows)
	}

	if !o.skipKB {
		log("SciFact nDCG@10 (backend/knowledge/keyword BenchmarkSciFact)")
		if m, err := goBench(ctx, o.root, "./backend/knowledge/keyword/", "BenchmarkSciFact", "1x"); err != nil {
			t.fail("keyword nDCG@10 on SciFact", err)
		} else {
			t.add("keyword nDCG@10 on BEIR SciFact (300 queries)", fmt.Sprintf("%.3f (recall@100 %.3f)", m["nDCG@10"], m["recall@100"]),
				"Anserini BM25 flat 0.679; never below BEIR BM25 0.665", verdict(m["nDCG@10"] >= 0.665))
		}
		hybridRow(ctx, o, t, log)
		kbRSSRows(ctx, o, t, log)
		log("PDF extraction (backend/knowledge/pdftext BenchmarkExtract)")
		if m, err := goBench(ctx, o.root, "./backend/knowledge/pdftext/", "BenchmarkExtract", "3x"); err != nil {
			t.fail("PDF pages/s", err)
		} else {
			t.add("PDF text extraction (PDFium/wazero, shared/eval/pdfs)", fmt.Sprintf("%.1f pages/s", m["pages/s"]), "", "")
		}
	}

	var helloBin string
	if !o.skipWindows {
		log("building the Wails hello-world reference")
		dir, err := os.MkdirTemp("", "wayfinder-bench-hello-")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(dir)
		helloBin = filepath.Join(dir, "hello")
		build := exec.CommandContext(ctx, "go", "build", "-tags", "desktop,production,webkit2_41", "-trimpath", "-buildmode=pie", "-ldflags", "-s -w", "-o", helloBin, "./tests/bench/hello")
		build.Dir = o.root
		if out, err := build.CombinedOutput(); err != nil {
			t.fail("Wails hello-world", fmt.Errorf("%w: %s", err, out))
			helloBin = ""
		}
		windows(ctx, o, t, helloBin, log)
	}

	if fi, err := os.Stat(filepath.Join(o.root, o.app)); err != nil {
		t.fail("binary size", err)
	} else {
		ref := ""
		if fh, err := os.Stat(helloBin); helloBin != "" && err == nil {
			ref = fmt.Sprintf("Wails hello-world: %.1f MB", float64(fh.Size())/1e6)
		}
		t.add("binary size (stripped, desktop build)", fmt.Sprintf("%.1f MB", float64(fi.Size())/1e6), ref, "")
	}

	report := t.report(begin)
	section, rep := speedSection(ctx, o, log)
	report += section
	if !o.skipPackages {
		section, err := packageSizes(ctx, o, log)
		if err != nil {
			section = fmt.Sprintf("\n## Package sizes\n\nNot measured: %v\n", err)
		}
		report += section
	}
	return report, writeReportJSON(o.out, rep, map[string]any{"table": t.rows})
}

// report renders the table with the run's circumstances and notes.
func (t *table) report(begin time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Wayfinder performance report\n\n")
	fmt.Fprintf(&b, "Measured %s in one run of `make bench` (%s) on %d CPU cores, %s/%s, %s; load average at the start: %s.\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), time.Since(begin).Round(time.Second), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), loadAvg())
	b.WriteString("| measure | Wayfinder | reference or goal | |\n|---|---|---|---|\n")
	for _, r := range t.rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r[0], r[1], r[2], r[3])
	}
	b.WriteString("\nNotes: the conversation-context figures run the real chat service and agent graph against the fake Ollama (`backend/llm/ollamatest`) in this process, " +
		"with the app's long-term memory (chromem-go, embedded by the fake); their prompt tokens use the fake's estimate (bytes ÷ 4). " +
		"Window startup is from exec to the frontend's first call into Go after mounting " +
		"(the \"frontend ready\" log line), median of the runs, under Xvfb; memory is VmRSS after idling, per process (shared pages count in each). " +
		"Knowledge base memory is the peak RSS (rusage) of the desktop binary's command line with no Ollama answering, so keyword only; the desktop build " +
		"maps GTK and WebKit even for a command (≈ 70 MiB of the idle figure). The speed section below says how it measures.\n")
	return b.String()
}

// windows measures Wayfinder's window and the hello-world's.
func windows(ctx context.Context, o options, t *table, helloBin string, log func(string, ...any)) {
	app := filepath.Join(o.root, o.app)
	if _, err := os.Stat(app); err != nil {
		t.fail("startup to interactive window", fmt.Errorf("%s missing (run make build): %w", app, err))
		return
	}
	fake, err := ollamatest.Start("127.0.0.1:0")
	if err != nil {
		t.fail("startup to interactive window", err)
		return
	}
	defer fake.Close()
	world.ScriptComplex(fake, world.Pace{})
	data, err := os.MkdirTemp("", "wayfinder-bench-data-")
	if err != nil {
		t.fail("startup to interactive window", err)
		return
	}
	defer os.RemoveAll(data)
	specs := []windowSpec{{Name: "Wayfinder", Bin: app, Args: []string{"--data-dir", data, "--ollama-host", fake.URL(), "--model", world.Model, "--embed-model", "bge-m3"}}}
	if helloBin != "" {
		specs = append(specs, windowSpec{Name: "Wails hello-world", Bin: helloBin})
	}
	log("opening the windows under Xvfb (%d starts each, %v idle before reading memory)", o.windowRuns+1, o.idle)
	// One extra start first: the first run of a fresh data folder indexes
	// the catalog and fills caches; the report is about a normal start.
	res, err := measureWindows(ctx, specs, o.windowRuns+1, o.idle)
	if err != nil {
		t.fail("startup to interactive window", err)
		return
	}
	var ref windowResult
	for _, r := range res {
		if r.Name != "Wayfinder" {
			ref = r
		}
	}
	for _, r := range res {
		if r.Name != "Wayfinder" {
			continue
		}
		if r.Error != "" {
			t.fail("startup to interactive window", fmt.Errorf("%s", r.Error))
			return
		}
		first, warm := r.Startups[0], windowResult{Startups: r.Startups[1:]}
		refText := ""
		if ref.Error == "" && len(ref.Startups) > 1 {
			refText = "Wails hello-world: " + ms(windowResult{Startups: ref.Startups[1:]}.median())
		}
		t.add("startup to interactive window", fmt.Sprintf("%s (first start on a new data folder: %s)", ms(warm.median()), ms(first)), refText, "")
		t.add("idle memory, all processes (RSS)", mib(r.totalRSS())+" "+rssDetail(r.RSS), "Wails hello-world: "+mib(ref.totalRSS())+" "+rssDetail(ref.RSS), "")
	}
}

func rssDetail(m map[string]int) string {
	var parts []string
	for _, name := range []string{"app", "WebKitWebProces", "WebKitNetworkPr"} {
		if v, ok := m[name]; ok {
			label := map[string]string{"app": "app", "WebKitWebProces": "web", "WebKitNetworkPr": "network"}[name]
			parts = append(parts, label+" "+mib(v))
		}
	}
	for name, v := range m {
		if name != "app" && name != "WebKitWebProces" && name != "WebKitNetworkPr" {
			parts = append(parts, name+" "+mib(v))
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
