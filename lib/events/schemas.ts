import { BIGINT_ID_MAX, PG_INT_MAX } from "@/lib/http/ints";
import { z } from "zod";
import type { EventData, EventType } from "./catalogue";

/**
 * An event as written: the caller's team, what the stream filters on, and data of its type's
 * shape (lib/events/catalogue.ts).
 */
export type NewEvent = {
  [T in EventType]: { teamId: number; type: T; waNumberId?: number | null; contactId?: number | null; data: EventData<T> };
}[EventType];

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
