package ollamatest

import "time"

// slotCache is one of the server's parallel slots and the tokens its KV
// cache holds: the last prompt it evaluated and what it generated.
type slotCache struct {
	id       int
	tokens   []int32
	inUse    bool
	lastUsed time.Time
}

// pickSlot chooses the slot for a prompt and says how many of its first
// tokens are already in that slot's cache, as Ollama's runner does
// (runner/llamarunner/cache.go, LoadCacheSlot, in v0.24.0):
//
//   - one slot (single user): the free slot with the longest common
//     prefix with the prompt, which is then cut back to that prefix;
//   - several slots (OLLAMA_NUM_PARALLEL > 1, "multi-user"): the slot
//     whose whole cache is a prefix of the prompt, if it is free; else the
//     least recently used free slot, into which the longest common prefix
//     found in any slot (even a busy one) is copied first.
//
// A prompt fully in the cache still evaluates its last token, so that the
// model has something to sample from. There must be a free slot.
func pickSlot(slots []slotCache, prompt []int32, multiUser bool) (*slotCache, int) {
	var slot *slotCache
	cached := 0
	if !multiUser {
		longest := -1
		for i := range slots {
			if slots[i].inUse {
				continue
			}
			if n := commonPrefix(slots[i].tokens, prompt); n > longest {
				longest, slot = n, &slots[i]
			}
		}
		cached = longest
	} else {
		longest, from := -1, -1
		oldest := -1
		for i := range slots {
			if n := commonPrefix(slots[i].tokens, prompt); n > longest {
				longest, from = n, i
			}
			if !slots[i].inUse && (oldest < 0 || slots[i].lastUsed.Before(slots[oldest].lastUsed)) {
				oldest = i
			}
		}
		if longest == len(slots[from].tokens) && !slots[from].inUse {
			slot, cached = &slots[from], longest
		} else {
			slot, cached = &slots[oldest], max(longest, 0)
			if from != oldest && cached > 0 {
				slot.tokens = append([]int32(nil), slots[from].tokens[:cached]...)
			}
		}
	}
	if cached >= len(prompt) && len(prompt) > 0 {
		cached = len(prompt) - 1
	}
	return slot, max(cached, 0)
}

func commonPrefix(a, b []int32) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
