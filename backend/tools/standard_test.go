package tools

import (
	"strings"
	"testing"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

func TestStandard(t *testing.T) {
	tests := []struct {
		name        string
		deps        Deps
		wantSchemas string
	}{
		{"bare", Deps{}, "calculator,get_time"},
		{"everything", Deps{Retriever: &fakeRetriever{}, Memory: &fakeMemory{}, Search: NoProvider{}, Folders: func() []api.FolderGrant { return nil }},
			"calculator,get_time,retrieve_docs,search_catalog,read_memory,read_file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Standard(nil, tt.deps)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(r.Names(), ","); got != tt.wantSchemas {
				t.Errorf("names = %s, want %s", got, tt.wantSchemas)
			}
			if len(r.Schemas()) != len(r.Names()) {
				t.Errorf("%d schemas for %d names", len(r.Schemas()), len(r.Names()))
			}
		})
	}
	r, _ := Standard(nil, Deps{Search: NoProvider{}})
	py, err := r.WithEnabled("run_python", true)
	if err != nil || !strings.HasSuffix(strings.Join(py.Names(), ","), "run_python") {
		t.Errorf("run_python not enabled: %v %v", py, err)
	}
	wiki, _ := Standard(nil, Deps{Wikipedia: &Wikipedia{}})
	if got := strings.Join(wiki.Names(), ","); got != "calculator,get_time" {
		t.Errorf("search_wikipedia is offered before it is enabled: %s", got)
	}
	if wiki, err = wiki.WithEnabled(WikipediaName, true); err != nil || strings.Join(wiki.Names(), ",") != "calculator,get_time,search_wikipedia" {
		t.Errorf("search_wikipedia not enabled: %v %v", wiki, err)
	}
	on, err := r.WithEnabled("web_search", true)
	if err != nil || !strings.HasSuffix(strings.Join(on.Names(), ","), "web_search") {
		t.Errorf("web_search not enabled: %v %v", on, err)
	}
}

// BuiltInNames is every tool Standard registers with all its dependencies
// and every tool switched on, in order: a tool added to Standard and not
// to the list would reach the person without their words for it.
func TestBuiltInNamesAreStandards(t *testing.T) {
	r, err := Standard(nil, Deps{Retriever: &fakeRetriever{}, Memory: &fakeMemory{}, Search: NoProvider{},
		Folders: func() []api.FolderGrant { return nil }, Weather: &OpenMeteo{}, Wikipedia: &Wikipedia{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{WebSearchName, "get_weather", WikipediaName, "run_python"} {
		if r, err = r.WithEnabled(name, true); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := strings.Join(r.Names(), ","), strings.Join(BuiltInNames(), ","); got != want {
		t.Errorf("Standard registers %s, BuiltInNames says %s", got, want)
	}
}
