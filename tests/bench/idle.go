package main

import (
	"context"
	"os"
	"slices"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// afterWait is how long the statement that ends every turn, saving the
// reply (store.UpdateMessage), takes back to back, after sleeping as long
// as a model call takes, and after busy-waiting as long without ever
// letting the CPU idle. Medians of n.
type afterWait struct{ warm, slept, spun time.Duration }

// saveAfterWait measures afterWait. On this project's VM both waits make the
// statement several times slower, the busy one too: the caches and page
// tables the statement needs are gone after wait, whatever the CPU did
// meanwhile, so a turn pays that once before its first model call and
// once after its last, and fewer statements is the only remedy.
func saveAfterWait(ctx context.Context, n int, wait time.Duration) (afterWait, error) {
	dir, err := os.MkdirTemp("", "wayfinder-bench-idle-")
	if err != nil {
		return afterWait{}, err
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(ctx, dir)
	if err != nil {
		return afterWait{}, err
	}
	defer st.Close()
	user, reply := store.NewTurn(store.NewID(), "안녕하세요")
	if err := st.StartTurn(ctx, "idle", user, reply, false); err != nil {
		return afterWait{}, err
	}
	reply.Status = api.StatusComplete
	median := func(pause func()) (time.Duration, error) {
		d := make([]time.Duration, n)
		for i := range d {
			pause()
			reply.Content = "반갑습니다 " + time.Now().String()
			start := time.Now()
			if err := st.UpdateMessage(ctx, reply); err != nil {
				return 0, err
			}
			d[i] = time.Since(start)
		}
		slices.Sort(d)
		return d[n/2], nil
	}
	var r afterWait
	if r.warm, err = median(func() {}); err != nil {
		return r, err
	}
	if r.slept, err = median(func() { time.Sleep(wait) }); err != nil {
		return r, err
	}
	r.spun, err = median(func() {
		for end := time.Now().Add(wait); time.Now().Before(end); {
		}
	})
	return r, err
}
