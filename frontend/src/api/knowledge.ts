// Typed client for the Go KnowledgeService: the person's documents, the
// built-in tool catalog and retrieval as the agent sees it.
import type { Transport } from "./transport";
import type { CatalogEntry, DocumentSpan, KBDocument, LibraryFile, Passage, SearchHit } from "./gotypes.gen";

const S = "KnowledgeService";

export interface KnowledgeApi {
  documents(): Promise<KBDocument[]>;
  /** importPaths imports files or folders by path (desktop); progress comes as events. */
  importPaths(paths: string[]): Promise<string>;
  /** chooseFiles and chooseFolder open native dialogs (desktop only). */
  chooseFiles(): Promise<string[]>;
  chooseFolder(): Promise<string>;
  /** upload imports one file's contents (drag and drop, the browser). */
  upload(name: string, contentBase64: string): Promise<string>;
  /** attach imports one file's contents into a conversation's own files (the message box). */
  attach(sessionID: string, name: string, contentBase64: string): Promise<string>;
  /**
   * chooseAttachments opens the native dialog to attach files to a
   * conversation (desktop only): the chosen paths, none when cancelled.
   */
  chooseAttachments(): Promise<string[]>;
  /** attachPath imports one file by its path into a conversation's own files (desktop: no upload bound). */
  attachPath(sessionID: string, path: string): Promise<string>;
  /** attached lists the documents of a conversation's own files. */
  attached(sessionID: string): Promise<KBDocument[]>;
  /** addToLibrary makes a conversation's file part of the whole library: where it is now, and whether its meaning is still being indexed. */
  addToLibrary(sessionID: string, source: string): Promise<LibraryFile>;
  /**
   * addedToLibrary lists the files a conversation added to the library, as
   * they are there now (paused, indexing, done, documents removed since),
   * so that a reloaded window says of them what the one that added them did.
   */
  addedToLibrary(sessionID: string): Promise<LibraryFile[]>;
  /** dismissAdded forgets a conversation's record of a file it added to the library (its row dismissed; the file stays). */
  dismissAdded(sessionID: string, id: number): Promise<void>;
  /** removeAttached takes a file out of a conversation: its documents and its copy are deleted. */
  removeAttached(sessionID: string, source: string): Promise<void>;
  remove(docID: string): Promise<void>;
  search(query: string, topK: number): Promise<SearchHit[]>;
  /**
   * passage opens a hit: its chunk with the text around it in its
   * document. sessionID is the conversation it is opened from ("" for the
   * Knowledge screen: a conversation's own files open only from it);
   * source is the file a cited chunk came from and cited its text as the
   * reply cited it (the source's snippet), to find it in its document
   * when that was imported again since (Passage.found says how).
   */
  passage(sessionID: string, chunkID: string, source?: string, cited?: string): Promise<Passage>;
  /** span reads count chunks of a document from the chunk numbered from (the reader paging); sessionID as in passage. */
  span(sessionID: string, docID: string, from: number, count: number): Promise<DocumentSpan>;
  /**
   * cancelImport stops a running or waiting import, upload or attachment by
   * the id importPaths, upload or attach returned: the file it is on is not
   * added, files done stay; its events end with stage "stopped".
   */
  cancelImport(importID: string): Promise<void>;
  /**
   * resumeEmbedding lets the background embedding index the meaning of a
   * file whose embedding the person stopped (paused: KBDocument.embed_paused),
   * by its source; one not paused is no error.
   */
  resumeEmbedding(source: string): Promise<void>;
  catalog(category: string): Promise<CatalogEntry[]>;
  categories(): Promise<string[]>;
}

export function knowledgeApi(t: Transport): KnowledgeApi {
  const list = async <T>(method: string, args: unknown[]) => (await t.call<T[] | null>(S, method, args)) ?? [];
  return {
    documents: () => list<KBDocument>("Documents", []),
    importPaths: (paths) => t.call<string>(S, "Import", [paths]),
    chooseFiles: () => list<string>("ChooseFiles", []),
    chooseFolder: async () => (await t.call<string | null>(S, "ChooseFolder", [])) ?? "",
    upload: (name, content) => t.call<string>(S, "Upload", [name, content]),
    attach: (sid, name, content) => t.call<string>(S, "Attach", [sid, name, content]),
    chooseAttachments: () => list<string>("ChooseAttachments", []),
    attachPath: (sid, path) => t.call<string>(S, "AttachPath", [sid, path]),
    attached: (sid) => list<KBDocument>("Attached", [sid]),
    addToLibrary: (sid, source) => t.call<LibraryFile>(S, "AddToLibrary", [sid, source]),
    addedToLibrary: async (sid) => (await list<LibraryFile>("AddedToLibrary", [sid])).map((f) => ({ ...f, doc_ids: f.doc_ids ?? [], removed: f.removed ?? [] })),
    dismissAdded: (sid, id) => t.call<void>(S, "DismissAdded", [sid, id]),
    removeAttached: (sid, source) => t.call<void>(S, "RemoveAttached", [sid, source]),
    remove: (id) => t.call<void>(S, "Remove", [id]),
    cancelImport: (id) => t.call<void>(S, "CancelImport", [id]),
    resumeEmbedding: (source) => t.call<void>(S, "ResumeEmbedding", [source]),
    search: async (q, k) => (await list<SearchHit>("Search", [q, k])).map((h) => ({ ...h })),
    passage: (sid, id, source, cited) => t.call<Passage>(S, "Passage", [sid, id, source ?? "", cited ?? ""]),
    span: async (sid, id, from, count) => {
      const s = await t.call<DocumentSpan>(S, "Span", [sid, id, from, count]);
      return { ...s, parts: s.parts ?? [] };
    },
    catalog: async (c) => (await list<CatalogEntry>("Catalog", [c])).map((e) => ({ ...e, categories: e.categories ?? [], tasks: e.tasks ?? [], platforms: e.platforms ?? [], languages: e.languages ?? [] })),
    categories: () => list<string>("Categories", []),
  };
}

/** toBase64 encodes file bytes for Upload without blowing the call stack. */
export function toBase64(bytes: Uint8Array): string {
  let bin = "";
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    bin += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(bin);
}
