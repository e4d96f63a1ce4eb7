import { z } from "zod";
import { MESSAGE_STATUSES } from "@/db/schema/messages";
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

export const EVENT_TYPES = [
  "message.created",
  "message.status",
  "contact.labels",
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

/** An event as read back from the log or from a NOTIFY. */
export type StoredEvent = {
  id: number;
  teamId: number;
  type: string;
  waNumberId: number | null;
  contactId: number | null;
  data: unknown;
};

/** `GET /api/v1/events` query: optional filters, and `last_event_id` for a first connection. */
export const eventStreamQuery = z.object({
  wa_number: z.string().trim().min(1).optional(),
  contact_id: z.coerce.number().int().positive().max(2147483647).optional(),
  last_event_id: z.coerce.number().int().min(0).optional(),
});
export type EventStreamQuery = z.output<typeof eventStreamQuery>;
