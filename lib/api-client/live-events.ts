import type { QueryClient } from "@tanstack/react-query";
import { EVENT_TYPES, parseLiveEvent, type EventType } from "@/lib/events/catalogue";
import { broadcastsLiveEvents } from "./broadcasts-live";
import { templatesLiveEvents } from "./templates-live";
import { patchOptOut } from "./contact-opt-out";
import { historyLiveEvents } from "./history-live";
import {
  contactLabels,
  conversationRead,
  conversationUpdated,
  inboxMessageCreated,
  inboxMessageStatus,
  inboxStreamOpened,
} from "./inbox-live";
import { addNote } from "./notes";
import { queryKeys } from "./query-keys";
import { refetchWhenIdle } from "./refetch-when-idle";

/** Every event type of `GET /api/v1/events` the dashboard listens to: all of the catalogue's. */
export const LIVE_EVENT_TYPES = EVENT_TYPES;
export type LiveEventType = EventType;

export type LiveEventHandler = {
  /** One event as the stream sent it: `data` is parsed with its type's schema before use. */
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
 * (history-live.ts), the broadcasts (broadcasts-live.ts), the templates and numbers Meta changes
 * (templates-live.ts), the contacts lists and the notes. One
 * per QueryClient, so its debounces and throttles outlive a reconnection.
 */
export function liveEventHandler(qc: QueryClient): LiveEventHandler {
  let handler = handlers.get(qc);
  if (handler) return handler;
  const history = historyLiveEvents(qc);
  const broadcasts = broadcastsLiveEvents(qc);
  const templates = templatesLiveEvents(qc);
  handler = {
    event(type, data) {
      // The payload is parsed with the server's own schemas (lib/events/catalogue.ts): one that
      // does not fit (a server newer than this page, or a bug) is set aside, never patched in.
      const ev = parseLiveEvent(type, data);
      if (!ev) {
        console.warn(`live event ${type} set aside: its data does not fit the catalogue`);
        return;
      }
      switch (ev.event) {
        case "message.created":
          inboxMessageCreated(qc, ev.data);
          history.messageCreated(ev.data);
          broadcasts.messageEvent();
          break;
        case "message.status":
          inboxMessageStatus(qc, ev.data);
          history.messageStatus(ev.data);
          broadcasts.messageEvent();
          break;
        case "contact.labels":
          contactLabels(qc, ev.data);
          break;
        case "contact.updated":
          patchOptOut(qc, ev.data.contact_id, ev.data.marketing_opt_out);
          break;
        case "conversation.read":
          conversationRead(qc, ev.data);
          break;
        case "conversation.updated":
          conversationUpdated(qc, ev.data);
          break;
        case "note.created":
          addNote(qc, ev.data);
          break;
        case "broadcast.updated":
          broadcasts.broadcastUpdated(ev.data);
          break;
        case "template.updated":
          templates.templateUpdated();
          break;
        case "number.health":
          refetchWhenIdle(qc, queryKeys.numbers);
          refetchWhenIdle(qc, queryKeys.numberSettings);
          templates.numberHealth();
          break;
      }
    },
    opened() {
      inboxStreamOpened(qc);
      history.streamOpened();
      broadcasts.streamOpened();
    },
    reset() {
      refetchWhenIdle(qc, queryKeys.inbox.listsAll);
      refetchWhenIdle(qc, queryKeys.inbox.oneAll);
      refetchWhenIdle(qc, queryKeys.inbox.threadAll);
      refetchWhenIdle(qc, queryKeys.history.all);
      refetchWhenIdle(qc, queryKeys.broadcasts.all);
      refetchWhenIdle(qc, queryKeys.inbox.notesAll);
      templates.reset();
    },
  };
  handlers.set(qc, handler);
  return handler;
}
