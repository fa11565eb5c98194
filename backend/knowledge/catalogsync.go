package knowledge

import (
	"context"

	"github.com/wayfinder-app/wayfinder/backend/knowledge/catalog"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/chunk"
	"github.com/wayfinder-app/wayfinder/backend/knowledge/importer"
)

// CatalogSource is the source name of the built-in catalog's documents.
const CatalogSource = "builtin:catalog"

// KindCatalog marks catalog documents, for search filters.
const KindCatalog = "catalog"

// SyncCatalog indexes the built-in catalog when this database has not seen
// its version yet: on first start, and after an update that changed it. It
// needs no model; embeddings follow when an embedding model is available.
func SyncCatalog(ctx context.Context, b *Base, c catalog.Catalog, onProgress func(Progress)) (bool, error) {
	docs := make([]importer.Document, len(c.Entries))
	for i, e := range c.Entries {
		docs[i] = importer.Document{
			ID: e.ID(), Title: e.Name, Source: CatalogSource, Kind: KindCatalog,
			Parts: []chunk.Input{{Text: e.DocumentText()}},
		}
	}
	return b.ImportRecords(ctx, CatalogSource, c.Version, docs, onProgress)
}
