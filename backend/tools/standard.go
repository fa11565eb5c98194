package tools

import "log/slog"

// Deps are what the standard tools need. A nil dependency leaves its tool
// out, so a caller without memory (or without a knowledge base) still gets a
// working registry.
type Deps struct {
	Retriever Retriever
	Memory    MemoryReader
	Search    SearchProvider // nil: web_search is not registered at all
	Folders   Folders        // nil: read_file is not registered
	Clock     Clock          // nil: time.Now
	TimeZone  string         // default zone of get_time, e.g. "Asia/Seoul"
	Weather   *OpenMeteo     // nil: get_weather is not registered
	Wikipedia *Wikipedia     // nil: search_wikipedia is not registered
}

// Standard builds the registry of Wayfinder's tools in a fixed order:
// calculator, get_time, retrieve_docs, search_catalog, read_memory,
// read_file,
// web_search, get_weather, search_wikipedia and run_python (registered but
// off until WithEnabled turns them on: web_search and get_weather reach the
// network, search_wikipedia a file or the network, run_python is the
// person's choice in Settings).
func Standard(log *slog.Logger, d Deps) (*Registry, error) {
	ts := []*Tool{NewCalculator(), NewGetTime(d.Clock, d.TimeZone)}
	if d.Retriever != nil {
		ts = append(ts, NewRetrieveDocs(d.Retriever), NewSearchCatalog(d.Retriever))
	}
	if d.Memory != nil {
		ts = append(ts, NewReadMemory(d.Memory))
	}
	if d.Folders != nil {
		ts = append(ts, NewReadFile(d.Folders))
	}
	if d.Search != nil {
		ts = append(ts, NewWebSearch(d.Search))
	}
	if d.Weather != nil {
		ts = append(ts, NewGetWeather(*d.Weather))
	}
	if d.Wikipedia != nil {
		ts = append(ts, NewSearchWikipedia(*d.Wikipedia))
	}
	ts = append(ts, NewRunPython())
	return NewRegistry(log, ts...)
}

// BuiltInNames names every tool Standard can register, in its order, with
// or without its dependency and switched on or not. What a person reads of
// a tool (its name and what it reads or reaches, in the window's
// catalogs and the command line's words) is held to this list by tests,
// so that a new tool is never put to a person by its code name or by its
// description for the model; a test holds the list to Standard.
func BuiltInNames() []string {
	return []string{"calculator", "get_time", "retrieve_docs", "search_catalog", "read_memory", "read_file",
		WebSearchName, "get_weather", WikipediaName, "run_python"}
}
