import { getDb, noteTeamWrite } from "@/db/client";
import { messages } from "@/db/schema";
import { createContact, createNumber, createTeam } from "./factories";

type MessageInsert = typeof messages.$inferInsert;

/** A team with one company number and one contact: the three keys of a conversation. */
export async function createConversation() {
  const team = await createTeam();
  const number = await createNumber(team.id);
  const contact = await createContact(team.id);
  return { team, number, contact };
}

/** Inserts messages of a conversation (inbound text by default), in the given order; returns them. */
export async function insertMessages(
  conv: { team: { id: number }; number: { id: number }; contact: { id: number; customerNumber: string | null; customerId: string | null } },
  rows: Partial<MessageInsert>[],
) {
  const db = await getDb();
  const values: MessageInsert[] = rows.map((r) => ({
    teamId: conv.team.id,
    waNumberId: conv.number.id,
    contactId: conv.contact.id,
    customerNumber: conv.contact.customerNumber,
    customerId: conv.contact.customerId,
    sender: "CUSTOMER",
    direction: "INBOUND",
    type: "text",
    status: "RECEIVED",
    payload: { text: "hola" },
    ...r,
  }));
  const out = [];
  // Chunks keep each INSERT well under the 65,535 bind-parameter limit.
  for (let i = 0; i < values.length; i += 1000) {
    out.push(
      ...(await db
        .insert(messages)
        .values(values.slice(i, i + 1000))
        .returning()),
    );
  }
  // The test runs the app in this process: its writes count as this process's (db/replica.ts), so
  // the team's next reads stay on the primary until the scale pass's replica has replayed them.
  noteTeamWrite(conv.team.id);
  return out;
}

/** `count` messages one minute apart starting at `start` (an ISO instant). */
export function minuteSeries(start: string, count: number, extra: Partial<MessageInsert> = {}): Partial<MessageInsert>[] {
  const t0 = new Date(start).getTime();
  return Array.from({ length: count }, (_, i) => ({
    createdAt: new Date(t0 + i * 60_000),
    payload: { text: `mensaje ${i}` },
    ...extra,
  }));
}
