import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { and, count, eq, gte, inArray, lt, lte, sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { contacts, conversationDays, messages } from "@/db/schema";
import { idRangeFor } from "@/lib/messages/history-bounds";
import { countQuery, partitionBounds, type Conversation } from "@/lib/messages/history-repo";
import { createConversation, insertMessages } from "../helpers/history-factories";

/**
 * `total_items` sums whole UTC days from the `conversation_days` rollup and counts only the
 * partial edge days in `messages`. These tests hold it to a brute-force count over random
 * windows and zones, after inserts in several statements and deletes.
 */
const DAY = 86_400_000;
const ZONES = ["UTC", "America/Bogota", "Asia/Kathmandu", "Pacific/Chatham"];

async function bruteCount(c: Conversation): Promise<number> {
  const db = await getDb();
  const from = sql`(${c.window.from}::timestamp AT TIME ZONE ${c.timeZone})`;
  const upper =
    c.window.toExclusive === null
      ? lte(messages.createdAt, sql`now()`)
      : lt(messages.createdAt, sql`(${c.window.toExclusive}::timestamp AT TIME ZONE ${c.timeZone})`);
  const [{ n }] = await db
    .select({ n: count() })
    .from(messages)
    .where(
      and(
        eq(messages.teamId, c.teamId),
        eq(messages.waNumberId, c.waNumberId),
        eq(messages.contactId, c.contactId),
        gte(messages.createdAt, from),
        upper,
      ),
    );
  return n;
}

async function rollupMatchesMessages(teamId: number) {
  const db = await getDb();
  const expected = rowsOf<{ key: string; n: number }>(
    await db.execute(sql`SELECT wa_number_id || ':' || contact_id || ':' || (created_at AT TIME ZONE 'UTC')::date AS key, count(*)::int AS n
      FROM messages WHERE team_id = ${teamId} GROUP BY 1 ORDER BY 1`),
  );
  const actual = rowsOf<{ key: string; n: number }>(
    await db.execute(sql`SELECT wa_number_id || ':' || contact_id || ':' || day AS key, messages AS n
      FROM conversation_days WHERE team_id = ${teamId} ORDER BY 1`),
  );
  expect(actual).toEqual(expected);
}

const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

describe("history total_items through the conversation_days rollup", () => {
  it("equals a brute-force count for any window and zone, after inserts and deletes", async () => {
    const conv = await createConversation();
    const now = Date.now();
    const base = Date.UTC(2026, 2, 1);
    // Messages over 40 days, some exactly at UTC midnights, a cluster near now and one in the future.
    const times = [
      ...Array.from({ length: 400 }, (_, i) => base + ((i * 7_919_000) % (40 * DAY))),
      ...Array.from({ length: 10 }, (_, i) => base + i * DAY),
      ...Array.from({ length: 60 }, (_, i) => now - i * 3_600_000),
      now + 3_600_000,
    ];
    for (let i = 0; i < times.length; i += 97) {
      await insertMessages(
        conv,
        times.slice(i, i + 97).map((t) => ({ createdAt: new Date(t) })),
      );
    }
    const db = await getDb();
    const doomed = await db.select({ id: messages.id }).from(messages).where(eq(messages.contactId, conv.contact.id)).limit(25);
    await db.delete(messages).where(
      inArray(
        messages.id,
        doomed.map((r) => r.id),
      ),
    );
    await rollupMatchesMessages(conv.team.id);

    // Each window's id range from the partitions' bounds, as a history page takes it: the count's
    // check (messages_history_ids_cover) would raise if it missed a partition of the window.
    const bounds = await partitionBounds(db);
    const conversation = (from: string, toExclusive: string | null, timeZone: string): Conversation => ({
      teamId: conv.team.id,
      waNumberId: conv.number.id,
      contactId: conv.contact.id,
      window: { from, toExclusive },
      timeZone,
      ids: idRangeFor(bounds, { from, toExclusive }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -2 * DAY, max: 42 * DAY }),
        fc.integer({ min: 0, max: 20 * DAY }),
        fc.constantFrom(...ZONES),
        fc.boolean(),
        fc.boolean(),
        async (offset, length, zone, wholeSeconds, dayAligned) => {
          let from = base + offset;
          if (dayAligned) from -= from % DAY;
          if (wholeSeconds) from -= from % 1000;
          const to = from + (dayAligned ? length - (length % DAY) : length);
          const c = conversation(wall(from), wall(to), zone);
          const [{ total }] = await countQuery(db, c);
          expect(total).toBe(await bruteCount(c));
        },
      ),
      { numRuns: 150 },
    );
    // "Until now" windows, which include the cluster of recent messages but not the future one.
    for (const days of [0, 1, 2, 5, 89]) {
      for (const zone of ZONES) {
        const c = conversation(wall(now - days * DAY), null, zone);
        const [{ total }] = await countQuery(db, c);
        expect(total).toBe(await bruteCount(c));
      }
    }
  });

  it("follows bulk inserts and a contact's deletion (its messages go by cascade)", async () => {
    const conv = await createConversation();
    const db = await getDb();
    await insertMessages(
      conv,
      Array.from({ length: 1500 }, (_, i) => ({ createdAt: new Date(Date.UTC(2026, 5, 1) + i * 600_000) })),
    );
    await rollupMatchesMessages(conv.team.id);
    const days = await db.select().from(conversationDays).where(eq(conversationDays.contactId, conv.contact.id));
    expect(days.reduce((sum, d) => sum + d.messages, 0)).toBe(1500);

    await db.delete(contacts).where(eq(contacts.id, conv.contact.id));
    expect(await db.select().from(conversationDays).where(eq(conversationDays.contactId, conv.contact.id))).toEqual([]);
  });

  it("refuses to move a message to another conversation or day (the rollup could not follow), and lets statuses change", async () => {
    const conv = await createConversation();
    const other = await createConversation();
    const [msg] = await insertMessages(conv, [{ createdAt: new Date(Date.UTC(2026, 6, 1, 12)) }]);
    const db = await getDb();
    const moves = [
      { contactId: other.contact.id },
      { waNumberId: other.number.id },
      { teamId: other.team.id },
      { createdAt: new Date(Date.UTC(2026, 6, 2, 12)) },
    ];
    for (const set of moves) {
      await expect(db.update(messages).set(set).where(eq(messages.id, msg.id))).rejects.toThrow();
    }
    await db.update(messages).set({ status: "READED", createdAt: msg.createdAt }).where(eq(messages.id, msg.id));
    const [row] = await db.select().from(messages).where(eq(messages.id, msg.id));
    expect(row).toMatchObject({ status: "READED", contactId: conv.contact.id, createdAt: msg.createdAt });
    await rollupMatchesMessages(conv.team.id);
  });
});
