package ollamatest

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// controlPrefix holds endpoints no real Ollama has; browser end-to-end tests
// use them to script the fake running in another process:
//
//	POST /__fake/script  a Reply, or an array of them, appended to the script
//	POST /__fake/fail    {"path": "/api/chat", "times": 1, "fault": {"kind": "http_500"}}
//	POST /__fake/reset   forget script, rules, faults and recorded requests
//	GET  /__fake/counts  {"/api/chat": 3, ...}
//	POST /__fake/models  a Model, or an array of them, installed
//	POST /__fake/pull_delay {"ms": 2000}: the pause between pull progress lines
//	POST /__fake/profile {"name": "gpu", "slots": 4, "scale": 0.5}: a latency
//	     model (Profile) with empty caches; {"name": ""} turns it off
//	GET  /__fake/stats   [CallStats, ...] of the chat calls under a latency model
const controlPrefix = "/__fake/"

// wireReply is a Reply with its durations in milliseconds for JSON.
type wireReply struct {
	Reply
	DelayMS      int `json:"delay_ms,omitempty"`
	ChunkDelayMS int `json:"chunk_delay_ms,omitempty"`
}

func (w wireReply) reply() Reply {
	r := w.Reply
	r.Delay = time.Duration(w.DelayMS) * time.Millisecond
	r.ChunkDelay = time.Duration(w.ChunkDelayMS) * time.Millisecond
	return r
}

func (s *Server) handleControl(w http.ResponseWriter, r *http.Request, body []byte) {
	bad := func(msg string) { writeJSON(w, http.StatusBadRequest, map[string]string{"error": msg}) }
	switch strings.TrimPrefix(r.URL.Path, controlPrefix) {
	case "script":
		var many []wireReply
		if err := json.Unmarshal(body, &many); err != nil {
			var one wireReply
			if err := json.Unmarshal(body, &one); err != nil {
				bad("script: body must be a reply or an array of replies: " + err.Error())
				return
			}
			many = []wireReply{one}
		}
		for _, wr := range many {
			s.Script(wr.reply())
		}
		writeJSON(w, http.StatusOK, map[string]int{"pending": s.Pending()})
	case "fail":
		var req struct {
			Path  string `json:"path"`
			Times int    `json:"times"`
			Fault Fault  `json:"fault"`
		}
		if err := json.Unmarshal(body, &req); err != nil || req.Path == "" || req.Fault.Kind == "" {
			bad(`fail: want {"path": "/api/chat", "times": 1, "fault": {"kind": "http_500"}}`)
			return
		}
		if req.Times == 0 {
			req.Times = 1
		}
		s.Fail(req.Path, req.Times, req.Fault)
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	case "reset":
		s.Reset()
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	case "models":
		var many []Model
		if err := json.Unmarshal(body, &many); err != nil {
			var one Model
			if err := json.Unmarshal(body, &one); err != nil || one.Name == "" {
				bad(`models: want {"name": "qwen3:4b", "capabilities": ["completion", "tools"]} or an array of them`)
				return
			}
			many = []Model{one}
		}
		for _, m := range many {
			s.AddModel(m)
		}
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	case "pull_delay":
		var req struct {
			MS int `json:"ms"`
		}
		if err := json.Unmarshal(body, &req); err != nil || req.MS < 0 {
			bad(`pull_delay: want {"ms": 2000}`)
			return
		}
		s.SetPullDelay(time.Duration(req.MS) * time.Millisecond)
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	case "profile":
		var req struct {
			Name  string  `json:"name"`
			Slots int     `json:"slots"`
			Scale float64 `json:"scale"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			bad(`profile: want {"name": "cpu" or "gpu" or "", "slots": 4, "scale": 1}`)
			return
		}
		if req.Name == "" {
			s.SetProfile(nil)
			writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
			return
		}
		p, err := ProfileNamed(req.Name, max(req.Slots, 1))
		if err != nil {
			bad("profile: " + err.Error())
			return
		}
		p.Scale = req.Scale
		s.SetProfile(&p)
		writeJSON(w, http.StatusOK, p)
	case "stats":
		writeJSON(w, http.StatusOK, s.Stats())
	case "counts":
		s.mu.Lock()
		counts := make(map[string]int, len(s.counts))
		for k, v := range s.counts {
			counts[k] = v
		}
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, counts)
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "unknown control endpoint"})
	}
}
