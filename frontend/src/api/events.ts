// Event names mapped to their payload types, so a subscription cannot read
// the wrong shape. The names come from the generated Events constant.
import type { Transport } from "./transport";
import {
  Events,
  type AddedToLibrary,
  type ApprovalRequired,
  type EmbedPauseChanged,
  type EmbeddingProgress,
  type EmbeddingsDone,
  type ImportProgress,
  type ImportReport,
  type KnowledgeRemoved,
  type MemoriesChanged,
  type MessageUpdated,
  type OllamaStatus,
  type TraceEvent,
  type PullProgress,
  type SessionsChanged,
  type TokenBatch,
  type ToolApprovalRequired,
  type TurnFailed,
  type TurnFinished,
  type TurnStarted,
} from "./gotypes.gen";

/**
 * Reconnected is not sent by Go: the HTTP transport raises it when its
 * event stream comes back after a drop, so stores can reload what they may
 * have missed.
 */
export const Reconnected = "transport.reconnected";

export interface EventMap {
  [Events.TurnStarted]: TurnStarted;
  [Events.Token]: TokenBatch;
  [Events.TurnFinished]: TurnFinished;
  [Events.TurnFailed]: TurnFailed;
  [Events.Sessions]: SessionsChanged;
  [Events.PullProgress]: PullProgress;
  [Events.StatusChanged]: OllamaStatus;
  [Events.Trace]: TraceEvent;
  [Events.Approval]: ApprovalRequired;
  [Events.MessageUpdated]: MessageUpdated;
  [Events.ToolApproval]: ToolApprovalRequired;
  [Events.Import]: ImportProgress;
  [Events.ImportDone]: ImportReport;
  [Events.Embedded]: EmbeddingsDone;
  [Events.Embedding]: EmbeddingProgress;
  [Events.EmbedPause]: EmbedPauseChanged;
  [Events.Removed]: KnowledgeRemoved;
  [Events.AddedToLibrary]: AddedToLibrary;
  [Events.Memories]: MemoriesChanged;
  [Reconnected]: null;
}

export type EventName = keyof EventMap;

export { Events };

/** subscribe is Transport.on with the payload type taken from the name. */
export function subscribe<K extends EventName>(
  t: Transport,
  name: K,
  handler: (payload: EventMap[K]) => void,
): () => void {
  return t.on<EventMap[K]>(name, handler);
}
