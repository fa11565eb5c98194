package llm

import (
	"context"
	"errors"

	"github.com/ollama/ollama/api"
	wf "github.com/wayfinder-app/wayfinder/backend/api"
)

// Progress is one line of a model download.
type Progress = api.ProgressResponse

// call runs a short non-streaming request with the request timeout and
// retries.
func (c *Client) call(ctx context.Context, op, model string, fn func(ctx context.Context) error) error {
	_, err := c.retry(ctx, op, model, func(ctx context.Context) (bool, error) {
		actx, cancel := context.WithTimeoutCause(ctx, c.cfg.timeouts.Request, errRequest)
		defer cancel()
		return false, c.fail(ctx, actx, op, model, fn(actx))
	})
	return err
}

// Version returns the server's version; it doubles as the reachability
// check.
func (c *Client) Version(ctx context.Context) (string, error) {
	var v string
	err := c.call(ctx, "version", "", func(ctx context.Context) (err error) {
		v, err = c.api.Version(ctx)
		return err
	})
	return v, err
}

// Show returns what Ollama knows about an installed model, including its
// capabilities.
func (c *Client) Show(ctx context.Context, model string) (*api.ShowResponse, error) {
	var resp *api.ShowResponse
	err := c.call(ctx, "show", model, func(ctx context.Context) (err error) {
		resp, err = c.api.Show(ctx, &api.ShowRequest{Model: model})
		return err
	})
	if err == nil {
		c.facts.remember(model, resp)
	}
	return resp, err
}

// Models lists installed models with their capabilities. Older servers do
// not put capabilities in the list, so each model is also shown; a model
// that cannot be shown keeps what the list said.
func (c *Client) Models(ctx context.Context) ([]wf.ModelInfo, error) {
	var list *api.ListResponse
	err := c.call(ctx, "list", "", func(ctx context.Context) (err error) {
		list, err = c.api.List(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]wf.ModelInfo, 0, len(list.Models))
	for _, m := range list.Models {
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
// have is ErrModelNotFound.
func (c *Client) Delete(ctx context.Context, model string) error {
	return c.call(ctx, "delete", model, func(ctx context.Context) error {
		return c.api.Delete(ctx, &api.DeleteRequest{Model: model})
	})
}

// Pull downloads model, reporting each progress line to onProgress (may be
// nil). A failure the server reports inside its 200 stream (no network,
// unknown name) is ErrPullFailed and is not retried; a dropped connection
// is, and Ollama resumes the download where it stopped.
func (c *Client) Pull(ctx context.Context, model string, onProgress func(Progress)) error {
	_, err := c.retry(ctx, "pull", model, func(ctx context.Context) (bool, error) {
		actx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		dog := newWatchdog(cancel, c.cfg.timeouts.PullIdle, c.cfg.timeouts.PullIdle)
		defer dog.stop()
		var sawSuccess bool
		err := c.api.Pull(actx, &api.PullRequest{Model: model}, func(p api.ProgressResponse) error {
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
		if errors.As(err, &e) && e.Kind == ErrServer && !isStatusError(e.Err) {
			e.Kind = ErrPullFailed
		}
		return false, err
	})
	return err
}

func isStatusError(err error) bool {
	var se api.StatusError
	return errors.As(err, &se)
}
