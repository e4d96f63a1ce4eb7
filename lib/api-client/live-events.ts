import type { QueryClient } from "@tanstack/react-query";
import { broadcastsLiveEvents } from "./broadcasts-live";
import { patchOptOut } from "./contact-opt-out";
import { historyLiveEvents } from "./history-live";
import {
  contactLabels,
  conversationRead,
  conversationUpdated,
  inboxMessageCreated,
  inboxMessageStatus,
  type MessageCreated,
  type MessageStatus,
} from "./inbox-live";
import { addNote, type Note } from "./notes";
import { queryKeys } from "./query-keys";
import type { BroadcastUpdatedEvent, Contact } from "./types";

/** Every event type of `GET /api/v1/events` the dashboard listens to. */
export const LIVE_EVENT_TYPES = [
  "message.created",
  "message.status",
  "contact.labels",
  "contact.updated",
  "conversation.read",
  "conversation.updated",
  "note.created",
  "broadcast.updated",
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

export type LiveEventHandler = {
  event(type: LiveEventType, data: unknown): void;
  /** The stream (re)opened: the pages on screen read again what it may have missed. */
  opened(): void;
  /** `reset`: a gap the server's log cannot fill; every live cache is read again. */
  reset(): void;
};

const handlers = new WeakMap<QueryClient, LiveEventHandler>();

/**
 * The dashboard's one live-event handler (the frame's stream feeds it: live-stream.tsx). Each event
 * patches every cache it concerns, with setQueryData where the event carries what is needed: the
 * inbox's lists, conversations and threads (inbox-live.ts), the history viewer's ranges
 * (history-live.ts), the broadcasts (broadcasts-live.ts), the contacts lists and the notes. One
 * per QueryClient, so its debounces and throttles outlive a reconnection.
 */
export function liveEventHandler(qc: QueryClient): LiveEventHandler {
  let handler = handlers.get(qc);
  if (handler) return handler;
  const history = historyLiveEvents(qc);
  const broadcasts = broadcastsLiveEvents(qc);
  handler = {
    event(type, data) {
      switch (type) {
        case "message.created":
          inboxMessageCreated(qc, data as MessageCreated);
          history.messageCreated(data as MessageCreated);
          broadcasts.messageEvent();
          break;
        case "message.status":
          inboxMessageStatus(qc, data as MessageStatus);
          history.messageStatus(data as MessageStatus);
          broadcasts.messageEvent();
          break;
        case "contact.labels":
          contactLabels(qc, data as Parameters<typeof contactLabels>[1]);
          break;
        case "contact.updated": {
          const ev = data as { contact_id: number; marketing_opt_out: Contact["marketing_opt_out"] };
          patchOptOut(qc, ev.contact_id, ev.marketing_opt_out);
          break;
        }
        case "conversation.read":
          conversationRead(qc, data as Parameters<typeof conversationRead>[1]);
          break;
        case "conversation.updated":
          conversationUpdated(qc, data as Parameters<typeof conversationUpdated>[1]);
          break;
        case "note.created":
          addNote(qc, data as Note);
          break;
        case "broadcast.updated":
          broadcasts.broadcastUpdated(data as BroadcastUpdatedEvent);
          break;
      }
    },
    opened() {
      history.streamOpened();
      broadcasts.streamOpened();
    },
    reset() {
      qc.invalidateQueries({ queryKey: queryKeys.inbox.listsAll });
      qc.invalidateQueries({ queryKey: queryKeys.inbox.oneAll });
      qc.invalidateQueries({ queryKey: queryKeys.inbox.threadAll });
      qc.invalidateQueries({ queryKey: queryKeys.history.all });
      qc.invalidateQueries({ queryKey: queryKeys.broadcasts.all });
      qc.invalidateQueries({ queryKey: queryKeys.inbox.notesAll });
    },
  };
  handlers.set(qc, handler);
  return handler;
}
