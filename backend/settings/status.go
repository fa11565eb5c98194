package settings

import (
	"context"
	"fmt"
	"slices"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

// Ollama is what onboarding needs from the model server.
type Ollama interface {
	Version(ctx context.Context) (string, error)
	Models(ctx context.Context) ([]api.ModelInfo, error)
}

// HostLister is an Ollama client with several hosts: it reports each
// one's state (nil with one host), and as err what a call would fail with
// when none is up.
type HostLister interface {
	HostStates(ctx context.Context) ([]api.HostStatus, error)
}

// Describe turns a client error into what the person sees.
type Describe func(error) api.ErrorInfo

// CheckStatus asks Ollama whether it answers and has the configured models,
// and names the first problem with the exact command that fixes it.
func CheckStatus(ctx context.Context, o Ollama, s api.Settings, describe Describe) api.OllamaStatus {
	st := api.OllamaStatus{
		Host:       s.OllamaHost,
		ChatModel:  api.ModelState{Name: s.ChatModel, Capabilities: []string{}},
		EmbedModel: api.ModelState{Name: s.EmbedModel, Capabilities: []string{}},
		Hosts:      []api.HostStatus{},
	}
	// failed is the status so far, with err said as the reason it ends here.
	failed := func(err error) api.OllamaStatus {
		info := describe(err)
		st.Error = &info
		return st
	}
	if hl, ok := o.(HostLister); ok {
		// First: listing every host tells the calls below which answer.
		hosts, err := hl.HostStates(ctx)
		if hosts != nil {
			st.Hosts = hosts
		}
		if err != nil {
			// No host is up, and the listing just said why. A call now
			// would probe a host whose backoff has not run out, and the
			// window checks every few seconds while nothing answers.
			return failed(err)
		}
	}
	v, err := o.Version(ctx)
	if err != nil {
		return failed(err)
	}
	st.Reachable, st.Version = true, v
	models, err := o.Models(ctx)
	if err != nil {
		return failed(err)
	}
	for _, m := range models {
		if api.SameModel(m.Name, s.ChatModel) {
			st.ChatModel = api.ModelState{Name: s.ChatModel, Installed: true, Capabilities: m.Capabilities}
		}
		if api.SameModel(m.Name, s.EmbedModel) {
			st.EmbedModel = api.ModelState{Name: s.EmbedModel, Installed: true, Capabilities: m.Capabilities}
		}
	}
	switch {
	case !st.ChatModel.Installed:
		st.Error = &api.ErrorInfo{
			Code:    api.ErrModelMissing,
			Message: fmt.Sprintf("The chat model %s is not downloaded yet.", s.ChatModel),
			Hint:    "ollama pull " + s.ChatModel,
			Args:    map[string]string{"model": s.ChatModel},
		}
	case !slices.Contains(st.ChatModel.Capabilities, "tools"):
		st.Error = &api.ErrorInfo{
			Code:    api.ErrModelNoTools,
			Message: fmt.Sprintf("The chat model %s cannot call tools, which Wayfinder needs for calculations, documents and recommendations.", s.ChatModel),
			Args:    map[string]string{"model": s.ChatModel},
			Hint:    "Choose a model with the “tools” badge in Settings, e.g. ollama pull " + DefaultChatModel,
		}
	}
	return st
}
