package llm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
	wf "github.com/wayfinder-app/wayfinder/backend/api"
)

// Progress is one line of a model download, with the host it came from.
// With several hosts each downloads the model in turn, and Ollama's
// figures start again for each: Index and Hosts let the person's bar say
// which host it is at and keep moving forward over all of them.
type Progress struct {
	api.ProgressResponse
	Host  string // the host downloading now
	Index int    // its place among the hosts, from 1
	Hosts int    // how many hosts download the model, one after another
}

// call runs a short non-streaming request with the request timeout and
// retries, on the host the pool picks for model.
func (c *Client) call(ctx context.Context, op, model string, fn func(ctx context.Context, h *endpoint) error) error {
	_, err := c.retry(ctx, op, model, "", func(ctx context.Context, h *endpoint) (bool, error) {
		actx, cancel := context.WithTimeoutCause(ctx, c.cfg.timeouts.Request, errRequest)
		defer cancel()
		return false, c.fail(ctx, actx, op, model, fn(actx, h))
	})
	return err
}

// on runs a short request on host h only (no other host takes it over),
// with the request timeout and retries.
func (c *Client) on(ctx context.Context, h *endpoint, op, model string, fn func(ctx context.Context) error) error {
	backoff := c.cfg.backoff
	for attempt := 0; ; attempt++ {
		actx, cancel := context.WithTimeoutCause(ctx, c.cfg.timeouts.Request, errRequest)
		err := c.fail(ctx, actx, op, model, fn(actx))
		cancel()
		var e *Error
		if errors.As(err, &e) && e.Host == "" {
			e.Host = h.url
		}
		c.pool.note(h, model, err)
		if err == nil || ctx.Err() != nil || !retryable(err) || attempt >= c.cfg.maxRetries {
			return err
		}
		select {
		case <-ctx.Done():
			return c.fail(ctx, nil, op, model, ctx.Err())
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, c.cfg.maxBackoff)
	}
}

// Version returns the server's version; it doubles as the reachability
// check.
func (c *Client) Version(ctx context.Context) (string, error) {
	var v string
	err := c.call(ctx, "version", "", func(ctx context.Context, h *endpoint) (err error) {
		v, err = h.api.Version(ctx)
		return err
	})
	return v, err
}

// Show returns what Ollama knows about an installed model, including its
// capabilities.
func (c *Client) Show(ctx context.Context, model string) (*api.ShowResponse, error) {
	var resp *api.ShowResponse
	err := c.call(ctx, "show", model, func(ctx context.Context, h *endpoint) (err error) {
		resp, err = h.api.Show(ctx, &api.ShowRequest{Model: model})
		return err
	})
	if err == nil {
		c.learn(model, resp)
	}
	return resp, err
}

// Models lists installed models with their capabilities. Older servers do
// not put capabilities in the list, so each model is also shown; a model
// that cannot be shown keeps what the list said. With several hosts it is
// every model some host that is up has (a call of it goes to one that
// has it); it fails only when no host answers.
func (c *Client) Models(ctx context.Context) ([]wf.ModelInfo, error) {
	var (
		models   []api.ListModelResponse
		firstErr error
		answered bool
	)
	if !c.pool.single() {
		// A host that is down is left alone until its backoff runs out:
		// those due are probed here, the others keep the error that put
		// them down. (Asking each host here would probe every host that is
		// down each time the window checks the status.)
		c.pool.refreshTags(ctx, "", false)
	}
	for _, h := range c.pool.hosts {
		if err := c.pool.downErr(h); err != nil {
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		var list *api.ListResponse
		err := c.on(ctx, h, "list", "", func(ctx context.Context) (err error) {
			list, err = h.api.List(ctx)
			return err
		})
		if ctx.Err() != nil {
			return nil, err
		}
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		for _, m := range list.Models {
			if !slices.ContainsFunc(models, func(o api.ListModelResponse) bool { return wf.SameModel(o.Name, m.Name) }) {
				models = append(models, m)
			}
		}
		answered = true
	}
	if !answered {
		return nil, firstErr
	}
	out := make([]wf.ModelInfo, 0, len(models))
	for _, m := range models {
		info := wf.ModelInfo{Name: m.Name, Size: m.Size, Capabilities: capStrings(m.Capabilities)}
		if show, err := c.Show(ctx, m.Name); err == nil {
			info.Capabilities = capStrings(show.Capabilities)
		} else if ctx.Err() != nil {
			return nil, err
		} else {
			c.cfg.logger.Warn("show model failed", "model", m.Name, "err", err)
		}
		out = append(out, info)
	}
	return out, nil
}

func capStrings[T ~string](caps []T) []string {
	out := make([]string, 0, len(caps))
	for _, c := range caps {
		out = append(out, string(c))
	}
	return out
}

// ModelState says whether model is installed and what it can do. A missing
// model is not an error: Installed is false.
func (c *Client) ModelState(ctx context.Context, model string) (wf.ModelState, error) {
	st := wf.ModelState{Name: model, Capabilities: []string{}}
	show, err := c.Show(ctx, model)
	if errors.Is(err, ErrModelNotFound) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	st.Installed = true
	st.Capabilities = capStrings(show.Capabilities)
	return st, nil
}

// Delete removes an installed model from Ollama; a model Ollama does not
// have is ErrModelNotFound. With several hosts it is removed from every
// host that answers, and is ErrModelNotFound only when none had it.
func (c *Client) Delete(ctx context.Context, model string) error {
	var errs []error
	deleted := false
	for _, h := range c.pool.hosts {
		err := c.on(ctx, h, "delete", model, func(ctx context.Context) error {
			return h.api.Delete(ctx, &api.DeleteRequest{Model: model})
		})
		switch {
		case err == nil:
			deleted = true
		case ctx.Err() != nil:
			return err
		case errors.Is(err, ErrModelNotFound) && len(c.pool.hosts) > 1:
			errs = append([]error{err}, errs...) // the host-level errors first
		default:
			errs = append(errs, err)
		}
	}
	if deleted && !slices.ContainsFunc(errs, func(e error) bool { return !errors.Is(e, ErrModelNotFound) }) {
		return nil
	}
	if deleted || len(errs) == 0 {
		return errors.Join(errs...)
	}
	return errs[0]
}

// Pull downloads model, reporting each progress line to onProgress (may be
// nil). A failure the server reports inside its 200 stream (no network,
// unknown name) is ErrPullFailed and is not retried; a dropped connection
// is, and Ollama resumes the download where it stopped. With several hosts
// each host downloads it in turn, so that every host can take its calls;
// each line names its host and place (Progress.Index of Hosts). A host in
// trouble (no answer, a dropped connection, a server error) is passed
// over and the others still download it: the error is then a
// *MissedHosts once at least one host has the model (calls of it go to
// those), the first host's error when none has. Any other failure (an
// unknown name) is the same on every host and stops it.
func (c *Client) Pull(ctx context.Context, model string, onProgress func(Progress)) error {
	var missed MissedHosts
	for i, h := range c.pool.hosts {
		var each func(api.ProgressResponse)
		if onProgress != nil {
			each = func(p api.ProgressResponse) {
				onProgress(Progress{ProgressResponse: p, Host: h.url, Index: i + 1, Hosts: len(c.pool.hosts)})
			}
		}
		err := c.pullOn(ctx, h, model, each)
		switch {
		case err == nil:
			missed.Got++
		case ctx.Err() == nil && hostFault(err) && len(c.pool.hosts) > 1:
			missed.Hosts, missed.Errs = append(missed.Hosts, h.url), append(missed.Errs, err)
		default:
			return err
		}
	}
	switch {
	case len(missed.Hosts) == 0:
		return nil
	case missed.Got == 0:
		return missed.Errs[0]
	}
	return &missed
}

// MissedHosts is a download that some hosts got and others did not, for
// they were in trouble: the model works (its calls go to the hosts that
// have it), and the person can pull it again once they are back.
type MissedHosts struct {
	Got   int      // hosts that have the model now
	Hosts []string // those that do not, in order
	Errs  []error  // why, one per host
}

func (m *MissedHosts) Error() string {
	return fmt.Sprintf("downloaded on %d of %d hosts, not on %s: %v",
		m.Got, m.Got+len(m.Hosts), strings.Join(m.Hosts, ", "), errors.Join(m.Errs...))
}

// Unwrap gives the hosts' errors to errors.Is and errors.As.
func (m *MissedHosts) Unwrap() []error { return m.Errs }

func (c *Client) pullOn(ctx context.Context, h *endpoint, model string, onProgress func(api.ProgressResponse)) error {
	backoff := c.cfg.backoff
	for attempt := 0; ; attempt++ {
		err := c.pullOnce(ctx, h, model, onProgress)
		c.pool.note(h, model, err)
		if err == nil || ctx.Err() != nil || !retryable(err) || attempt >= c.cfg.maxRetries {
			return err
		}
		c.cfg.logger.Warn("ollama pull failed, retrying", "model", model, "host", h.url, "attempt", attempt+1, "backoff", backoff, "err", err)
		select {
		case <-ctx.Done():
			return c.fail(ctx, nil, "pull", model, ctx.Err())
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, c.cfg.maxBackoff)
	}
}

func (c *Client) pullOnce(ctx context.Context, h *endpoint, model string, onProgress func(api.ProgressResponse)) error {
	{
		actx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		dog := newWatchdog(cancel, c.cfg.timeouts.PullIdle, c.cfg.timeouts.PullIdle)
		defer dog.stop()
		var sawSuccess bool
		err := h.api.Pull(actx, &api.PullRequest{Model: model}, func(p api.ProgressResponse) error {
			dog.tick()
			sawSuccess = sawSuccess || p.Status == "success"
			if onProgress != nil {
				onProgress(p)
			}
			return nil
		})
		if err == nil && !sawSuccess {
			err = errNoDone
		}
		err = c.fail(ctx, actx, "pull", model, err)
		var e *Error
		if errors.As(err, &e) {
			e.Host = h.url
			if e.Kind == ErrServer && !isStatusError(e.Err) {
				e.Kind = ErrPullFailed
			}
		}
		return err
	}
}

func isStatusError(err error) bool {
	var se api.StatusError
	return errors.As(err, &se)
}
