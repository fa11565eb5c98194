// Package api holds every type that crosses between the Go backend and the
// frontend: results of bound methods, event payloads and settings. They are
// in the files types_*.go, one a subject (chat, approval, trace, errors,
// settings, knowledge, memory, events, mcp). The TypeScript types in
// frontend/src/api/gotypes.gen.ts are generated from those files (make
// generate), and CI fails when the two drift apart, so the frontend can never
// read a field the backend stopped sending.
//
// JSON names are snake_case throughout because `wayfinder ask --json` prints
// TurnResult as it is, and a second naming scheme for the UI would only
// invite mistakes.
package api
