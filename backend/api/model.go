package api

import "strings"

// ModelKey is a model's name as Ollama resolves it: case and surrounding
// spaces do not count, and a name without a tag means ":latest", so
// "bge-m3" and "BGE-M3:latest" are one model. Whatever decides that two
// names are the same model (the Ollama client's model lists and context
// lengths, Settings' status, whether the embedding model changed and the
// vectors must be made again) compares keys, never the names as typed.
func ModelKey(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if !strings.Contains(name, ":") {
		name += ":latest"
	}
	return name
}

// SameModel reports whether a and b name one model (ModelKey); an empty
// name is no model, and the same as none.
func SameModel(a, b string) bool {
	return strings.TrimSpace(a) != "" && strings.TrimSpace(b) != "" && ModelKey(a) == ModelKey(b)
}
