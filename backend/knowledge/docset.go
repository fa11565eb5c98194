package knowledge

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"
)

// docSet is what search filters need of every live document: its source
// and kind. Every search consults it (the default scope leaves the catalog
// out), so it stays in memory; titles and record ids are read with the
// hits instead. Documents share their (source, kind) pair, and ids made by
// uuid.NewV7 are kept as 16 bytes, so 100k documents of one file take
// about 3 MB where a map of strings took 24 MB.
type docSet struct {
	mu      sync.RWMutex
	groups  []docGroup
	groupOf map[docGroup]uint32
	byUUID  map[uuid.UUID]uint32
	other   map[string]uint32 // ids that are not UUIDs
	// catalog holds the ids of the built-in catalog's few hundred
	// documents, replaced whole when they change: the default search
	// scope only needs to tell them apart, for every candidate chunk,
	// without a lock or a lookup in the large maps.
	catalog atomic.Pointer[map[string]bool]
}

type docGroup struct{ source, kind string }

func newDocSet() *docSet {
	s := &docSet{groupOf: map[docGroup]uint32{}, byUUID: map[uuid.UUID]uint32{}, other: map[string]uint32{}}
	s.catalog.Store(&map[string]bool{})
	return s
}

// isCatalog reports whether the document is one of the built-in catalog's.
func (s *docSet) isCatalog(id string) bool { return (*s.catalog.Load())[id] }

// setCatalog records that a document is in the catalog or not any more.
// Callers hold s.mu.
func (s *docSet) setCatalog(id string, in bool) {
	old := *s.catalog.Load()
	if old[id] == in {
		return
	}
	next := make(map[string]bool, len(old)+1)
	for k := range old {
		next[k] = true
	}
	if in {
		next[id] = true
	} else {
		delete(next, id)
	}
	s.catalog.Store(&next)
}

// add records a document; adding it again changes nothing.
func (s *docSet) add(id, source, kind string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := docGroup{source, kind}
	n, ok := s.groupOf[g]
	if !ok {
		n = uint32(len(s.groups))
		s.groups = append(s.groups, g)
		s.groupOf[g] = n
	}
	if u, ok := canonicalUUID(id); ok {
		s.byUUID[u] = n
	} else {
		s.other[id] = n
	}
	if kind == KindCatalog {
		s.setCatalog(id, true)
	}
}

// remove forgets documents. Their group stays: a file imported again
// comes back to it.
func (s *docSet) remove(ids []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if u, ok := canonicalUUID(id); ok {
			delete(s.byUUID, u)
		} else {
			delete(s.other, id)
		}
		s.setCatalog(id, false)
	}
}

// get returns a document's source and kind.
func (s *docSet) get(id string) (source, kind string, ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var n uint32
	if u, canon := canonicalUUID(id); canon {
		n, ok = s.byUUID[u]
	} else {
		n, ok = s.other[id]
	}
	if !ok {
		return "", "", false
	}
	g := s.groups[n]
	return g.source, g.kind, true
}

// canonicalUUID parses the form uuid.UUID.String writes, and only that, so
// that every id has one key.
func canonicalUUID(id string) (uuid.UUID, bool) {
	if len(id) != 36 || strings.ContainsAny(id, "ABCDEF") {
		return uuid.UUID{}, false
	}
	u, err := uuid.Parse(id)
	return u, err == nil
}

// anySource says whether some live document's source satisfies ok; it
// looks at each distinct (source, kind) once, not at every document.
func (s *docSet) anySource(ok func(source string) bool) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, g := range s.groups {
		if ok(g.source) {
			return true
		}
	}
	return false
}
