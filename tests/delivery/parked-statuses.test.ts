import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { messageStatusHistory, messages, parkedStatuses, webhookDeadLetters } from "@/db/schema";
import { applyParkedStatuses, parkedRetryDelayMs } from "@/lib/delivery/parked-statuses";
import { claimMessages } from "@/lib/delivery/repo";
import { startServer, type TestServer } from "../helpers/server";
import { createContact, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createQueuedMessage, messageById, postWebhook } from "../helpers/delivery-factories";
import { change, envelope, statusUpdate, wamid } from "../fixtures/webhooks";

/**
 * Status webhooks are durable before they are acknowledged (docs/write-path.md): what cannot be
 * applied when it arrives is parked in the transaction that decides the 200, with its reason,
 * and applied later by whichever process runs the chore; a parked status naming a send proves
 * that send reached the provider, so it is never sent again.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function setup() {
  const team = await createTeam();
  const number = await createCloudNumber(team.id);
  const contact = await createContact(team.id);
  const template = await createTemplate(team.id);
  const msg = await createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template });
  return { team, number, contact, msg };
}

async function parkedOf(providerMessageId: string) {
  const db = await getDb();
  return db.select().from(parkedStatuses).where(eq(parkedStatuses.providerMessageId, providerMessageId));
}

describe("parked statuses", () => {
  it("a status for a send whose claim still holds waits parked, blocks any second send, and adopts the wamid once the lease is over", async () => {
    const { team, number, contact, msg } = await setup();
    const db = await getDb();
    // A worker claimed it and sent it; Meta's answer has not been committed (a slow answer, or a crash).
    await db
      .update(messages)
      .set({ lockedUntil: sql`now() + interval '1 hour'`, attempts: 1 })
      .where(eq(messages.id, msg.id));
    const id = wamid();
    const item = { ...statusUpdate("delivered", { id, to: contact.customerNumber! }), biz_opaque_callback_data: msg.updateId };
    const res = await postWebhook(server.url, envelope(change(number.phoneNumberId, { statuses: [item] })), number.secrets.appSecret);
    expect(res.status).toBe(200);
    expect(res.body.data.statuses).toBe(0);
    expect((await parkedOf(id)).map((p) => [p.reason, p.status, p.callbackData])).toEqual([["leased", "delivered", msg.updateId]]);

    // While the lease holds, the chore leaves it parked (tried again in a second).
    expect(await applyParkedStatuses([team.id])).toBe(0);
    expect((await messageById(msg.id)).status).toBe("QUEUED");
    const [waiting] = await parkedOf(id);
    expect(waiting.attempts).toBe(1);
    expect(waiting.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() - 5000);

    // The process dies: the lease runs out. No claim takes the message again, however long the grace.
    await db
      .update(messages)
      .set({ lockedUntil: sql`now() - interval '1 hour'` })
      .where(eq(messages.id, msg.id));
    expect(
      (await claimMessages(db, { limit: 100, leaseMs: 5000, aheadSec: 10, teamIds: [team.id], uncertainGraceMs: 0 })).map((c) => c.id),
    ).not.toContain(msg.id);

    // The chore adopts the wamid the status carried (QUEUED → SENDED) and applies the status.
    await db
      .update(parkedStatuses)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(parkedStatuses.providerMessageId, id));
    expect(await applyParkedStatuses([team.id])).toBe(1);
    const after = await messageById(msg.id);
    expect(after.status).toBe("DELIVERED");
    expect(after.providerMessageId).toBe(id);
    const trail = await db
      .select()
      .from(messageStatusHistory)
      .where(eq(messageStatusHistory.messageId, msg.id))
      .orderBy(messageStatusHistory.id);
    expect(trail.map((e) => [e.status, e.applied])).toEqual([
      ["SENDED", 1],
      ["DELIVERED", 1],
    ]);
    expect((trail[0].raw as { adopted?: string }).adopted).toBe("status webhook");
    expect(await parkedOf(id)).toEqual([]);
  });

  it("a status for no known message is kept, tried with backoff, and after 7 days set aside as an expired dead letter", async () => {
    const { team, number, contact } = await setup();
    const db = await getDb();
    const id = wamid();
    const res = await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { statuses: [statusUpdate("read", { id, to: contact.customerNumber! })] })),
      number.secrets.appSecret,
    );
    expect(res.status).toBe(200);
    expect((await parkedOf(id)).map((p) => p.reason)).toEqual(["unknown"]);
    expect(await applyParkedStatuses([team.id])).toBe(0);
    const [row] = await parkedOf(id);
    expect(row.attempts).toBe(1);

    await db
      .update(parkedStatuses)
      .set({ receivedAt: sql`now() - interval '8 days'` })
      .where(eq(parkedStatuses.providerMessageId, id));
    await applyParkedStatuses([team.id]);
    expect(await parkedOf(id)).toEqual([]);
    const dead = await db.select().from(webhookDeadLetters).where(eq(webhookDeadLetters.teamId, team.id));
    expect(dead.map((d) => d.kind)).toEqual(["expired"]);
    expect(dead[0].reason).toContain(`no message with provider id ${id} appeared in 7 days`);
    expect(JSON.parse(dead[0].raw).id).toBe(id);
  });

  it("backs off an unknown status from a second to ten minutes; a leased one is looked at every second", () => {
    expect([1, 2, 3, 4, 11, 50].map((n) => parkedRetryDelayMs("unknown", n))).toEqual([1000, 2000, 4000, 8000, 600_000, 600_000]);
    expect(parkedRetryDelayMs("leased", 40)).toBe(1000);
  });
});
