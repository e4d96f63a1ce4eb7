import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { broadcasts, events, messages } from "@/db/schema";
import { sweepBroadcasts } from "@/lib/broadcasts/lifecycle";
import { findBroadcast } from "@/lib/broadcasts/repo";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createNumber } from "../helpers/factories";
import { broadcastTeam, body, createContact } from "./helpers";

/**
 * A broadcast's state moves by the lifecycle's sweep (lib/broadcasts/lifecycle.ts), never by a
 * read: the GETs answer what is stored even when a transition is due, write nothing and announce
 * nothing; the sweep then applies it. No worker runs here, so nothing else moves these broadcasts.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const B = "/api/v1/broadcasts";

async function world() {
  const t = await broadcastTeam();
  const number = await createNumber(t.team.id);
  for (const name of ["Ana", "Beto"]) await createContact(t.team.id, { name, labelIds: [t.labels.vip.id] });
  const api = apiClient(server.url, t.team.token);
  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await api.post(
      B,
      body({ wa_number: number.number, template_name: t.template.name, audience: { labels_any: [t.labels.vip.id] }, ...extra }),
    );
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };
  const db = await getDb();
  const announced = async () =>
    (
      await db
        .select({ data: events.data })
        .from(events)
        .where(and(eq(events.teamId, t.team.id), eq(events.type, "broadcast.updated")))
        .orderBy(events.id)
    ).map((e) => e.data as { id: number; status: string });
  /** Every GET of a broadcast: the detail, the list, its recipients (page and CSV) and timeline. */
  const readAll = async (id: number) => {
    const one = await api.get(`${B}/${id}`);
    const list = await api.get(B);
    for (const path of [`${B}/${id}/recipients`, `${B}/${id}/recipients?format=csv`, `${B}/${id}/timeline`]) {
      expect([path, (await api.raw("GET", path)).status]).toEqual([path, 200]);
    }
    expect(list.body.data.find((b: { id: number }) => b.id === id).status).toBe(one.body.data.status);
    return one.body.data;
  };
  return { ...t, db, api, create, announced, readAll };
}

describe("reads never move a broadcast; the sweep does", () => {
  it("SENDING with nothing left QUEUED: GETs show SENDING and announce nothing; the sweep makes it DONE", async () => {
    const w = await world();
    const id = await w.create();
    // Both messages leave the queue, as the worker's settle would (no worker runs here).
    await w.db
      .update(messages)
      .set({ status: "SENDED" })
      .where(and(eq(messages.teamId, w.team.id), eq(messages.broadcastId, id)));
    const stored = await findBroadcast(w.db, { teamId: w.team.id, id });
    const eventsBefore = await w.announced();

    const read = await w.readAll(id);
    expect(read).toMatchObject({ status: "SENDING", finished_at: null, counts: { queued: 0, sended: 2 } });
    expect(await findBroadcast(w.db, { teamId: w.team.id, id })).toEqual(stored);
    expect(await w.announced()).toEqual(eventsBefore);

    // The sweep applies it at once: a due state change does not wait for the progress throttle.
    expect(await sweepBroadcasts([w.team.id])).toBe(1);
    const after = (await w.api.get(`${B}/${id}`)).body.data;
    expect(after.status).toBe("DONE");
    expect(after.finished_at).not.toBeNull();
    expect((await w.announced()).slice(eventsBefore.length)).toEqual([expect.objectContaining({ id, status: "DONE" })]);
  });

  it("SCHEDULED whose time has come: GETs show SCHEDULED and announce nothing; the sweep starts it at its time", async () => {
    const w = await world();
    const id = await w.create({ scheduled_at: new Date(Date.now() + 60_000).toISOString() });
    // Its time comes (moved back rather than waited for).
    const at = new Date(Date.now() - 1000);
    await w.db
      .update(broadcasts)
      .set({ scheduledAt: at })
      .where(and(eq(broadcasts.teamId, w.team.id), eq(broadcasts.id, id)));
    const stored = await findBroadcast(w.db, { teamId: w.team.id, id });
    const eventsBefore = await w.announced();

    const read = await w.readAll(id);
    expect(read).toMatchObject({ status: "SCHEDULED", started_at: null });
    expect(await findBroadcast(w.db, { teamId: w.team.id, id })).toEqual(stored);
    expect(await w.announced()).toEqual(eventsBefore);

    expect(await sweepBroadcasts([w.team.id])).toBe(1);
    const after = (await w.api.get(`${B}/${id}`)).body.data;
    expect(after).toMatchObject({ status: "SENDING", started_at: at.toISOString() });
    expect((await w.announced()).slice(eventsBefore.length)).toEqual([expect.objectContaining({ id, status: "SENDING" })]);
  });
});

describe("a write that makes a transition due applies it", () => {
  it("a create whose every recipient is rejected answers DONE (and announces it), with no sweep", async () => {
    const t = await broadcastTeam();
    const number = await createNumber(t.team.id);
    // {{name}} is empty for this contact: rejected, so nothing is ever QUEUED.
    await createContact(t.team.id, { name: "", labelIds: [t.labels.vip.id] });
    const api = apiClient(server.url, t.team.token);
    const res = await api.post(
      B,
      body({ wa_number: number.number, template_name: t.template.name, audience: { labels_any: [t.labels.vip.id] } }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: "DONE", counts: { recipients: 1, rejected: 1, queued: 0 } });
    expect(res.body.data.finished_at).not.toBeNull();
    const db = await getDb();
    const announced = await db
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.teamId, t.team.id), eq(events.type, "broadcast.updated")));
    expect(announced.map((e) => e.data)).toEqual([expect.objectContaining({ id: res.body.data.id, status: "DONE" })]);
  });
});
