import { BIGINT_ID_MAX, PG_INT_MAX } from "@/lib/http/ints";
import { z } from "zod";
import { MESSAGE_STATUSES } from "@/db/schema/messages";
import { marketingOptOutSchema } from "@/lib/contacts/schemas";
import { labelSchema } from "@/lib/labels/schemas";

const messageStatusSchema = z.enum(MESSAGE_STATUSES);

/**
 * What `GET /api/v1/events` streams (DESIGN section 14). Each event's `data` is one of these
 * shapes; the SSE `event:` line names the type and `id:` is the event log's id.
 */
export const messageCreatedEvent = z
  .object({
    id: z.number().int(),
    update_id: z.string(),
    wa_number: z.string(),
    contact_id: z.number().int(),
    direction: z.enum(["INBOUND", "OUTBOUND"]),
    type: z.string(),
    status: messageStatusSchema,
    created_at: z.string(),
  })
  .meta({ id: "MessageCreatedEvent" });

export const messageStatusEvent = z
  .object({
    id: z.number().int(),
    update_id: z.string(),
    status: messageStatusSchema,
    error: z.object({ code: z.number().nullable(), title: z.string(), details: z.string().nullable().optional() }).nullable(),
  })
  .meta({ id: "MessageStatusEvent" });

export const contactLabelsEvent = z
  .object({
    contact_id: z.number().int(),
    labels: z.array(labelSchema),
  })
  .meta({ id: "ContactLabelsEvent" });

/** An agent opted a contact out of marketing or back in (PATCH /contacts/{id}). */
export const contactUpdatedEvent = z
  .object({ contact_id: z.number().int(), marketing_opt_out: marketingOptOutSchema })
  .meta({ id: "ContactUpdatedEvent" });

export const EVENT_TYPES = [
  "message.created",
  "message.status",
  "contact.labels",
  "contact.updated",
  "conversation.read",
  "conversation.updated",
  "broadcast.updated",
  "note.created",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as written: the caller's team and what the stream filters on. */
export type NewEvent = {
  teamId: number;
  type: EventType;
  waNumberId?: number | null;
  contactId?: number | null;
  data: Record<string, unknown>;
};

/** An event as read back from the log. */
export type StoredEvent = {
  id: number;
  /** Its writing transaction's id (xid8 as text): the log is read in (xact, id) order. */
  xact?: string;
  teamId: number;
  type: string;
  waNumberId: number | null;
  contactId: number | null;
  data: unknown;
};

/** `GET /api/v1/events` query: optional filters, and `last_event_id` for a first connection. */
export const eventStreamQuery = z.object({
  wa_number: z.string().trim().min(1).optional(),
  contact_id: z.coerce.number().int().positive().max(PG_INT_MAX).optional(),
  last_event_id: z.coerce.number().int().min(0).max(BIGINT_ID_MAX).optional(),
});
export type EventStreamQuery = z.output<typeof eventStreamQuery>;
