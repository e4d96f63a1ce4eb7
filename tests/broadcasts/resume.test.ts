import { and, eq, gt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { broadcasts, messages } from "@/db/schema";
import { enqueueAudience, resumeInterrupted } from "@/lib/broadcasts/enqueue";
import { findBroadcast, templateOfBroadcast } from "@/lib/broadcasts/repo";
import { createBroadcastRequest } from "@/lib/broadcasts/schemas";
import { createBroadcast } from "@/lib/broadcasts/service";
import { createNumber } from "../helpers/factories";
import { tokenCtx } from "../helpers/send-factories";
import { broadcastMessages, broadcastTeam, body, createContact } from "./helpers";
import { waitFor } from "../helpers/wait";

async function created(n: number) {
  const t = await broadcastTeam();
  const number = await createNumber(t.team.id);
  const contacts = [];
  for (let i = 0; i < n; i++) contacts.push(await createContact(t.team.id, { name: `C${i}`, labelIds: [t.labels.vip.id] }));
  const input = createBroadcastRequest.parse(
    body({ wa_number: number.number, template_name: t.template.name, audience: { labels_any: [t.labels.vip.id] } }),
  );
  const res = await createBroadcast({ ctx: tokenCtx(t.team.id), input });
  return { ...t, number, contacts, id: res.data.id };
}

const perContact = (rows: { contactId: number }[]) => {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.contactId, (counts.get(r.contactId) ?? 0) + 1);
  return counts;
};

describe("an enqueue interrupted by a crash", () => {
  it("is finished by the worker's resume from its committed cursor, each contact once", async () => {
    const w = await created(6);
    const db = await getDb();
    // As if the process died after the batch that ended at the third contact.
    const cursor = w.contacts[2].id;
    await db.delete(messages).where(and(eq(messages.teamId, w.team.id), eq(messages.broadcastId, w.id), gt(messages.contactId, cursor)));
    await db
      .update(broadcasts)
      .set({ enqueuedAt: null, status: "SENDING", enqueueCursor: cursor, recipients: 3, createdAt: sql`now() - interval '5 minutes'` })
      .where(eq(broadcasts.id, w.id));

    // A recent enqueue is left alone (it may still be running); one idle for longer is resumed:
    // asked with a 300 ms idle bound, the run is taken over once its newest message (written
    // just now, by the database's clock) is that old.
    expect(await resumeInterrupted([w.team.id], 10 * 60_000)).toBe(0);
    expect(
      await waitFor(
        () => resumeInterrupted([w.team.id], 300),
        (n) => n > 0,
        10_000,
        50,
        "return",
      ),
    ).toBe(1);
    const rows = await broadcastMessages(w.team.id, w.id);
    expect([...perContact(rows).entries()].sort()).toEqual(w.contacts.map((c) => [c.id, 1]).sort());
    const after = (await findBroadcast(db, { teamId: w.team.id, id: w.id }))!;
    expect(after.recipients).toBe(6);
    expect(after.enqueuedAt).not.toBeNull();
    expect(await resumeInterrupted([w.team.id], 0)).toBe(0);
  });

  it("two runs at once take turns on the broadcast row and enqueue no contact twice", async () => {
    const w = await created(7);
    const db = await getDb();
    await db.delete(messages).where(and(eq(messages.teamId, w.team.id), eq(messages.broadcastId, w.id)));
    await db.update(broadcasts).set({ enqueuedAt: null, enqueueCursor: 0, recipients: 0 }).where(eq(broadcasts.id, w.id));
    const row = (await findBroadcast(db, { teamId: w.team.id, id: w.id }))!;
    const target = { number: { id: row.waNumberId }, template: (await templateOfBroadcast(db, row))!, media: null };
    await Promise.all([enqueueAudience(tokenCtx(w.team.id), row, target, 2), enqueueAudience(tokenCtx(w.team.id), row, target, 3)]);
    const rows = await broadcastMessages(w.team.id, w.id);
    expect([...perContact(rows).entries()].sort()).toEqual(w.contacts.map((c) => [c.id, 1]).sort());
    expect((await findBroadcast(db, { teamId: w.team.id, id: w.id }))!.recipients).toBe(7);
  });
});
