// Long-term memories.

package api

import "time"

// MemoryKind says what a long-term memory is about.
type MemoryKind string

const (
	MemoryPreference MemoryKind = "preference"
	MemoryFact       MemoryKind = "fact"
	MemoryFeedback   MemoryKind = "feedback"
)

// MemoryOrigin says where a memory came from: nothing but the person's
// own words ever becomes a memory.
type MemoryOrigin string

const (
	MemorySaid       MemoryOrigin = "said"       // the person asked Wayfinder to remember it in a conversation
	MemoryReflection MemoryOrigin = "reflection" // drawn from what the person wrote, after a turn
	MemoryEdited     MemoryOrigin = "edited"     // written or corrected by the person (Memory screen, CLI)
)

// Memory is something Wayfinder remembers about the person; every one is
// shown in the memory screen and can be edited or deleted.
type Memory struct {
	ID        string       `json:"id"`
	Text      string       `json:"text"`
	Kind      MemoryKind   `json:"kind"`
	Origin    MemoryOrigin `json:"origin"`
	SessionID string       `json:"session_id,omitempty"`
	CreatedAt time.Time    `json:"created_at"`
	UpdatedAt time.Time    `json:"updated_at"`
}
