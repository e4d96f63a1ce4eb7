import { z } from "@/lib/http/zod-es";
import { MESSAGE_STATUSES } from "@/db/schema/messages";
import { CONVERSATION_STATUSES } from "@/db/schema/conversations";
import { marketingOptOutSchema } from "@/lib/contacts/schemas";
import { labelSchema } from "@/lib/labels/schemas";
import { messageErrorSchema } from "@/lib/messages/history-schemas";
import { noteSchema } from "@/lib/notes/schemas";
import { broadcastUpdatedEvent } from "@/lib/broadcasts/schemas";

/**
 * Every event type of the `events` log and the shape of its `data`, one zod schema each, in
 * snake_case as the API (the log and its stream: docs/architecture.md, "Live events"). What `GET /api/v1/events` streams is exactly these: the SSE `event:` line
 * names the type, `data:` is the JSON, `id:` is the log's id. Written by:
 *
 * | type                   | writer                                                                     |
 * | ---------------------- | -------------------------------------------------------------------------- |
 * | `message.created`      | db/functions/messages_after_insert.sql (every message outside a broadcast) |
 * | `message.status`       | db/functions/messages_status_changed.sql (every status change)             |
 * | `contact.labels`       | db/functions/contact_labels_change.sql (labels added or removed)           |
 * | `contact.updated`      | lib/contacts/service.ts updateContact (marketing opt-out)                  |
 * | `conversation.read`    | lib/conversations/service.ts markConversationRead                          |
 * | `conversation.updated` | lib/conversations/service.ts updateConversation; lib/messages/outbound-repo.ts insertReplyOnce (SQL) |
 * | `broadcast.updated`    | lib/broadcasts/announce.ts                                                 |
 * | `note.created`         | lib/notes/service.ts createNote                                            |
 * | `template.updated`     | lib/templates/meta-updates.ts (Meta's template webhooks, and the sync)     |
 * | `number.health`        | lib/numbers/health.ts (Meta's number quality and account webhooks)         |
 *
 * The TypeScript writers go through insertEvents (lib/events/repo.ts), which parses `data` with
 * these schemas; the SQL writers are held to them by tests/events/catalogue.test.ts, which makes
 * each kind of change and parses every event row it produced. The browser's one live-event handler
 * (lib/api-client/live-events.ts) parses with the same schemas, and the OpenAPI document describes
 * the stream from them. Client-safe: no server module is imported here.
 *
 * The outgoing webhooks (lib/outgoing-webhooks) are another contract: their `message.received` and
 * `message.status` bodies are the spec's, POSTed to a bot's or campaign's URL, and are not rows of
 * this log.
 */

const messageStatus = z.enum(MESSAGE_STATUSES);

export const messageCreatedEvent = z
  .object({
    id: z.number().int(),
    update_id: z.string(),
    wa_number: z.string(),
    contact_id: z.number().int(),
    direction: z.enum(["INBOUND", "OUTBOUND"]),
    type: z.string(),
    status: messageStatus,
    created_at: z.string().meta({ description: "ISO 8601 (UTC)" }),
  })
  .meta({ id: "MessageCreatedEvent" });

export const messageStatusEvent = z
  .object({
    id: z.number().int(),
    update_id: z.string(),
    status: messageStatus,
    error: messageErrorSchema.nullable().meta({ description: "Of a FAILED message; null otherwise" }),
  })
  .meta({ id: "MessageStatusEvent" });

/** The labels the contact holds after the change, all of them. */
export const contactLabelsEvent = z
  .object({ contact_id: z.number().int(), labels: z.array(labelSchema) })
  .meta({ id: "ContactLabelsEvent" });

/** An agent opted a contact out of marketing or back in (PATCH /contacts/{id}). */
export const contactUpdatedEvent = z
  .object({ contact_id: z.number().int(), marketing_opt_out: marketingOptOutSchema })
  .meta({ id: "ContactUpdatedEvent" });

export const conversationReadEvent = z
  .object({ id: z.number().int(), unread_count: z.number().int() })
  .meta({ id: "ConversationReadEvent" });

/** Only what the change set: the assignee (null: unassigned), the status, or both. */
export const conversationUpdatedEvent = z
  .object({
    id: z.number().int(),
    assignee_agent_id: z.number().int().nullable().optional(),
    status: z.enum(CONVERSATION_STATUSES).optional(),
  })
  .meta({ id: "ConversationUpdatedEvent" });

export { broadcastUpdatedEvent };

/** A new private note of a conversation: the note as the notes API answers it. */
export const noteCreatedEvent = noteSchema;

/**
 * Meta changed one of the team's templates (docs/features/templates-and-number-health.md): the
 * template as it is now and what changed (`field`: status, quality, category; `category_pending`
 * is a change Meta announced and has not made; `notice` an event that changes no field, such as
 * FLAGGED; `components` its content, edited in Meta and found by a sync). A sync with Meta's list
 * announces the templates it creates as a `status` change from null.
 */
export const templateUpdatedEvent = z
  .object({
    id: z.string().meta({ description: "El id de la plantilla (2.1): el de Meta cuando está sincronizada" }),
    name: z.string(),
    language: z.string(),
    status: z.string(),
    category: z.string(),
    quality_score: z.string(),
    rejected_reason: z.string(),
    sendable: z.boolean(),
    change: z.object({
      field: z.enum(["status", "quality", "category", "category_pending", "notice", "components"]),
      previous: z.string().nullable(),
      value: z.string(),
      reason: z.string().nullable(),
    }),
  })
  .meta({ id: "TemplateUpdatedEvent" });

/** Meta reported a change of a number's health: its quality rating, messaging limit tier or account. */
export const numberHealthEvent = z
  .object({
    wa_number: z.string(),
    quality_rating: z.string().nullable(),
    messaging_limit_tier: z.string().nullable(),
    event: z.string().meta({ description: "El evento de Meta: FLAGGED, UNFLAGGED, DOWNGRADE, UPGRADE, ACCOUNT_VIOLATION…" }),
    field: z.enum(["phone_number_quality_update", "account_update"]),
  })
  .meta({ id: "NumberHealthEvent" });

export const eventCatalogue = {
  "message.created": messageCreatedEvent,
  "message.status": messageStatusEvent,
  "contact.labels": contactLabelsEvent,
  "contact.updated": contactUpdatedEvent,
  "conversation.read": conversationReadEvent,
  "conversation.updated": conversationUpdatedEvent,
  "broadcast.updated": broadcastUpdatedEvent,
  "note.created": noteCreatedEvent,
  "template.updated": templateUpdatedEvent,
  "number.health": numberHealthEvent,
} as const;

export type EventType = keyof typeof eventCatalogue;
export const EVENT_TYPES = Object.keys(eventCatalogue) as EventType[];
export type EventData<T extends EventType> = z.output<(typeof eventCatalogue)[T]>;

const frame = <T extends EventType>(type: T) => z.object({ event: z.literal(type), data: eventCatalogue[type] });

/** One event of the stream: its type (the SSE `event:` line) and its data. */
export const liveEvent = z
  .discriminatedUnion("event", [
    frame("message.created"),
    frame("message.status"),
    frame("contact.labels"),
    frame("contact.updated"),
    frame("conversation.read"),
    frame("conversation.updated"),
    frame("broadcast.updated"),
    frame("note.created"),
    frame("template.updated"),
    frame("number.health"),
  ])
  .meta({
    id: "LiveEvent",
    description: "Un evento del flujo: `event` es la línea `event:` de SSE y `data` el JSON de la línea `data:`.",
  });
export type LiveEvent = z.output<typeof liveEvent>;

/** An event as the stream delivered it, parsed: null when its data does not fit its type's schema. */
export function parseLiveEvent(type: EventType, data: unknown): LiveEvent | null {
  const parsed = liveEvent.safeParse({ event: type, data });
  return parsed.success ? parsed.data : null;
}
