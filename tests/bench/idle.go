package main

import (
	"context"
	"os"
	"slices"
	"time"

	"github.com/wayfinder-app/wayfinder/backend/api"
	"github.com/wayfinder-app/wayfinder/backend/store"
)

// saveAfterIdle times the statement that ends every turn, saving the reply
// (store.UpdateMessage), run back to back and run after waiting as long as
// a model call takes. The difference is the machine's, not Wayfinder's:
// code that runs after a wait finds its caches cold, and a turn pays that
// once before its first model call and once after its last. Medians of n.
func saveAfterIdle(ctx context.Context, n int, wait time.Duration) (busy, idle time.Duration, err error) {
	dir, err := os.MkdirTemp("", "wayfinder-bench-idle-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(ctx, dir)
	if err != nil {
		return 0, 0, err
	}
	defer st.Close()
	_, reply, err := st.StartTurn(ctx, store.NewID(), "idle", "안녕하세요", false)
	if err != nil {
		return 0, 0, err
	}
	reply.Status = api.StatusComplete
	median := func(pause time.Duration) (time.Duration, error) {
		d := make([]time.Duration, n)
		for i := range d {
			time.Sleep(pause)
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
	if busy, err = median(0); err != nil {
		return 0, 0, err
	}
	idle, err = median(wait)
	return busy, idle, err
}
