// Command tsgen writes frontend/src/api/gotypes.gen.ts from the files
// backend/api/types_*.go. Run it from the repository root (make generate).
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/wayfinder-app/wayfinder/backend/api"
)

const (
	source = "backend/api"
	target = "frontend/src/api/gotypes.gen.ts"
)

func main() {
	files, err := api.ReadTypeSources(source)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
	out, err := api.GenerateTypeScript(files)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
	if old, err := os.ReadFile(target); err == nil && bytes.Equal(old, out) {
		return // unchanged: keep the file's time, so make does not rebuild the frontend
	}
	if err := os.WriteFile(target, out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "tsgen:", err)
		os.Exit(1)
	}
}
