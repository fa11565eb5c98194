// Files dropped on the desktop window reach the page twice: as the page's
// own drop, with their contents (the browser's way, sent back in base64
// and refused past 64 MB), and by their paths through the window
// (Transport.onFileDrop), read by the backend with no upload bound. A
// PathDrop takes a drop on one element by its paths where they come, and
// by its contents only where none came: the chat view attaches so, the
// Knowledge screen imports so.
import type { FileDropHandler } from "../api/transport";

/** FileDrops subscribes to the desktop window's drops by path (Transport.onFileDrop); the result unsubscribes. */
export type FileDrops = (handler: FileDropHandler) => () => void;

/**
 * How long a page's drop waits for the window's paths of it before it
 * sends the files' contents instead (WebKitGTK tells the paths within a
 * few milliseconds of the page's drop, before or after it).
 */
export const PATHS_WAIT_MS = 500;

export class PathDrop {
  /** when the window last gave the paths of files dropped on the element */
  private pathsAt = 0;
  /** the page's drops still waiting for their paths (their timers) */
  private readonly waiting = new Set<ReturnType<typeof setTimeout>>();
  /** closed: the element's screen is gone; nothing more is taken */
  private closed = false;

  /**
   * el is the element whose drops are taken (found when a drop comes);
   * onpaths takes their paths, onfiles their contents where no paths came.
   */
  constructor(
    private readonly el: () => Element | undefined,
    private readonly onpaths: (paths: string[]) => void,
    private readonly onfiles: (files: File[]) => void,
  ) {}

  /** listen hears the window's drops by path, taking those that land on the element; the result stops. */
  listen(filedrops: FileDrops): () => void {
    return filedrops((x, y, paths) => {
      if (this.closed) return;
      const el = this.el();
      const at = document.elementFromPoint?.(x, y);
      if (!paths.length || !el || !at || !el.contains(at)) return;
      this.pathsAt = Date.now();
      this.onpaths(paths);
    });
  }

  /**
   * drop takes the page's own drop of files on the element: the window
   * tells the same drop's paths just before or after, and those are
   * taken; only where none came within PATHS_WAIT_MS are the contents.
   */
  drop(files: File[]): void {
    if (this.closed) return;
    const at = Date.now();
    const timer = setTimeout(() => {
      this.waiting.delete(timer);
      if (this.pathsAt < at - PATHS_WAIT_MS) this.onfiles(files);
    }, PATHS_WAIT_MS);
    this.waiting.add(timer);
  }

  /**
   * cancel forgets the drops still waiting for their paths, so that one
   * made before the person moved on (another conversation) is not sent
   * where they went within the half second.
   */
  cancel(): void {
    for (const timer of this.waiting) clearTimeout(timer);
    this.waiting.clear();
  }

  /**
   * close ends the element's drops when its screen goes: the waiting ones
   * are forgotten, and paths or drops that still arrive take nothing.
   */
  close(): void {
    this.closed = true;
    this.cancel();
  }
}
