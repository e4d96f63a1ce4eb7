import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { messages } from "@/db/schema";
import { broadcastMaySend, parkClaim } from "@/lib/broadcasts/lifecycle";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createCloudNumber } from "../helpers/delivery-factories";
import { broadcastMessages, broadcastTeam, body, createContact } from "./helpers";

/**
 * The worker's last check before a broadcast send (broadcastMaySend) and its give-back
 * (parkClaim) against a pause and resume landing in between: the message must not be left
 * parked under a broadcast that is sending again (QUEUED for ever, the broadcast never DONE).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const B = "/api/v1/broadcasts";

async function claimedBroadcastMessage() {
  const t = await broadcastTeam();
  const number = await createCloudNumber(t.team.id, { messagesPerSecond: 10 });
  await createContact(t.team.id, { name: "Cliente", labelIds: [t.labels.vip.id] });
  const api = apiClient(server.url, t.team.token);
  const created = await api.post(
    B,
    body({ wa_number: number.number, template_name: t.template.name, audience: { labels_any: [t.labels.vip.id] } }),
  );
  expect(created.status).toBe(201);
  const id = created.body.data.id as number;
  const [m] = await broadcastMessages(t.team.id, id);
  // Claimed as the worker claims (no worker runs here): attempt counted, leased.
  const db = await getDb();
  await db
    .update(messages)
    .set({ attempts: sql`${messages.attempts} + 1`, lockedUntil: sql`now() + interval '30 seconds'` })
    .where(eq(messages.id, m.id));
  return { t, api, id, messageId: m.id, attempts: m.attempts + 1 };
}

async function messageRow(teamId: number, id: number) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.teamId, teamId), eq(messages.id, id)));
  return row;
}

describe("parkClaim", () => {
  it("parks a claim whose broadcast is paused, out of the queue until the resume", async () => {
    const w = await claimedBroadcastMessage();
    expect((await w.api.post(`${B}/${w.id}/pause`)).status).toBe(200);
    expect(await broadcastMaySend(w.messageId, w.attempts)).toBe(false);
    await parkClaim(w.messageId, w.attempts);
    const row = await messageRow(w.t.team.id, w.messageId);
    expect(row).toMatchObject({ status: "QUEUED", nextAttemptAt: null, lockedUntil: null, attempts: w.attempts - 1 });
    expect((await w.api.post(`${B}/${w.id}/resume`)).status).toBe(200);
    expect((await messageRow(w.t.team.id, w.messageId)).nextAttemptAt).not.toBeNull();
  });

  it("gives a claim back due when the broadcast was resumed between the check and the park", async () => {
    const w = await claimedBroadcastMessage();
    expect((await w.api.post(`${B}/${w.id}/pause`)).status).toBe(200);
    expect(await broadcastMaySend(w.messageId, w.attempts)).toBe(false);
    // The resume commits after the worker's check and before its park.
    expect((await w.api.post(`${B}/${w.id}/resume`)).status).toBe(200);
    await parkClaim(w.messageId, w.attempts);
    const row = await messageRow(w.t.team.id, w.messageId);
    expect(row).toMatchObject({ status: "QUEUED", lockedUntil: null, attempts: w.attempts - 1 });
    expect(row.nextAttemptAt).not.toBeNull();
    expect(row.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });
});
