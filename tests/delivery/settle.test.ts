import { describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { contacts, readReceipts, webhookDeliveries } from "@/db/schema";
import { createClaimLoop } from "@/lib/delivery/claim-loop";
import { retryOrFail } from "@/lib/delivery/outcome";
import { claimReadReceipts, receiptWrites } from "@/lib/delivery/read-receipts-repo";
import { claimMessages, type Claim } from "@/lib/delivery/repo";
import { sendWrites, type Sending } from "@/lib/delivery/send-task";
import { createSettle } from "@/lib/delivery/settle";
import { claimDeliveries, deliveryWrites, type DeliveryClaim } from "@/lib/outgoing-webhooks/deliveries-repo";
import { createContact, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createQueuedMessage, eventsOfMessage, messageById, waitFor } from "../helpers/delivery-factories";
import { createConversation, insertMessages } from "../helpers/history-factories";

/**
 * The one settle path (lib/delivery/settle.ts) with each kind's writers: every outcome moves the
 * claimed row to the state it names, only while the claim still holds it (the fence), and a
 * killed worker writes nothing.
 */
const live = () => false;
const near = (at: Date | null, ms: number) => Math.abs((at?.getTime() ?? 0) - (Date.now() + ms)) < 5_000;

describe("retryOrFail", () => {
  const policy = { maxAttempts: 3, baseMs: 1000, capMs: 4000 };
  it("retries a retryable try while attempts remain, the floors applied; fails a permanent one or the last attempt", () => {
    const r = retryOrFail(1, policy, { retryable: true, reason: "x", retryAfterMs: 7000 });
    expect(r).toEqual({ kind: "retry", afterMs: 7000, reason: "x" });
    const f = retryOrFail(2, policy, { retryable: true, reason: "x", floorMs: 60_000 });
    expect(f).toEqual({ kind: "retry", afterMs: 60_000, reason: "x" });
    const b = retryOrFail(2, policy, { retryable: true, reason: "x" });
    expect(b.kind === "retry" && b.afterMs).toBeLessThanOrEqual(2000);
    expect(retryOrFail(3, policy, { retryable: true, reason: "x" })).toEqual({ kind: "fail", reason: "x" });
    expect(retryOrFail(1, policy, { retryable: false, reason: "x" })).toEqual({ kind: "fail", reason: "x" });
  });
});

describe("settling sends", () => {
  async function claimed(count: number) {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const contact = await createContact(team.id);
    const template = await createTemplate(team.id);
    const rows = [];
    for (let i = 0; i < count; i++) rows.push(await createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template }));
    const claims = (await claimMessages(await getDb(), { limit: count, leaseMs: 60_000, aheadSec: 60, teamIds: [team.id] })).sort(
      (a, b) => a.id - b.id,
    );
    const sending = (c: Claim): Sending => ({ ...c, teamId: team.id, numberDigits: number.number });
    return { team, contact, rows, items: claims.map(sending) };
  }
  const settle = (killed = live) => createSettle("messages", sendWrites, killed);

  it("ok: SENDED with the provider's id and its event, many in one group commit", async () => {
    const { rows, items } = await claimed(5);
    const s = settle();
    const moved = await Promise.all(items.map((c, i) => s(c, { kind: "ok", providerMessageId: `wamid.settle.${c.id}.${i}` })));
    expect(moved).toEqual([true, true, true, true, true]);
    for (const [i, r] of rows.entries()) {
      expect(await messageById(r.id)).toMatchObject({
        status: "SENDED",
        providerMessageId: `wamid.settle.${r.id}.${i}`,
        lockedUntil: null,
        error: null,
      });
      expect((await eventsOfMessage(r.id)).map((e) => e.status)).toEqual(["SENDED"]);
    }
  });

  it("retry: back to the queue after its delay with the error kept; fail: FAILED with its event, 131050 opting the contact out", async () => {
    const { rows, items, contact } = await claimed(2);
    const s = settle();
    expect(await s(items[0], { kind: "retry", afterMs: 30_000, reason: { code: 130429, title: "Rate limit hit" } })).toBe(true);
    const retried = await messageById(rows[0].id);
    expect(retried).toMatchObject({ status: "QUEUED", lockedUntil: null, attempts: 1, error: { code: 130429, title: "Rate limit hit" } });
    expect(near(retried.nextAttemptAt, 30_000)).toBe(true);

    expect(await s(items[1], { kind: "fail", reason: { code: 131050, title: "Stopped marketing" } })).toBe(true);
    expect(await messageById(rows[1].id)).toMatchObject({ status: "FAILED", lockedUntil: null, error: { code: 131050 } });
    expect((await eventsOfMessage(rows[1].id)).map((e) => e.status)).toEqual(["FAILED"]);
    const [c] = await (await getDb()).select().from(contacts).where(eq(contacts.id, contact.id));
    expect(c.marketingOptedOutAt).not.toBeNull();
  });

  it("release: given back uncounted; skip: nothing written; a stale claim or a killed worker moves nothing", async () => {
    const { rows, items } = await claimed(4);
    const s = settle();
    expect(await s(items[0], { kind: "release" })).toBe(true);
    expect(await messageById(rows[0].id)).toMatchObject({ status: "QUEUED", lockedUntil: null, attempts: 0 });
    expect(await s(items[1], { kind: "skip" })).toBe(false);
    expect(await messageById(rows[1].id)).toMatchObject({ status: "QUEUED", attempts: 1 });
    expect((await messageById(rows[1].id)).lockedUntil).not.toBeNull();
    // A claim another worker took since (attempts moved on): its ok writes nothing.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await s({ ...items[2], attempts: 0 }, { kind: "ok", providerMessageId: "wamid.settle.stale" })).toBe(false);
    warn.mockRestore();
    expect(await messageById(rows[2].id)).toMatchObject({ status: "QUEUED", providerMessageId: null });
    expect(await settle(() => true)(items[3], { kind: "fail", reason: { code: null, title: "x" } })).toBe(false);
    expect(await messageById(rows[3].id)).toMatchObject({ status: "QUEUED", error: null });
  });
});

describe("settling outgoing webhook deliveries", () => {
  async function claimed(count: number) {
    const team = await createTeam();
    const db = await getDb();
    const rows = await db
      .insert(webhookDeliveries)
      .values(
        Array.from({ length: count }, () => ({
          teamId: team.id,
          targetKind: "bot" as const,
          targetId: 1,
          url: "http://127.0.0.1:9/unused",
          event: "message.received",
          payload: {},
          nextAttemptAt: new Date(Date.now() - 1000),
        })),
      )
      .returning();
    const items = (await claimDeliveries(db, { limit: count, leaseMs: 60_000, teamIds: [team.id] })).sort((a, b) => a.id - b.id);
    const rowOf = async (id: number) => (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0];
    return { rows, items, rowOf };
  }

  it("ok: delivered with the answer's code; retry: pending after its delay with the last answer; fail: failed with it; a stale claim moves nothing", async () => {
    const { rows, items, rowOf } = await claimed(4);
    const s = createSettle("hooks", deliveryWrites, live);
    expect(await s(items[0], { kind: "ok", code: 204 })).toBe(true);
    expect(await rowOf(rows[0].id)).toMatchObject({ status: "delivered", lastStatusCode: 204, lastError: null, lockedUntil: null });
    expect((await rowOf(rows[0].id)).deliveredAt).not.toBeNull();

    expect(await s(items[1], { kind: "retry", afterMs: 20_000, reason: { code: 503, error: "HTTP 503" } })).toBe(true);
    const retried = await rowOf(rows[1].id);
    expect(retried).toMatchObject({ status: "pending", lastStatusCode: 503, lastError: "HTTP 503", lockedUntil: null, deliveredAt: null });
    expect(near(retried.nextAttemptAt, 20_000)).toBe(true);

    expect(await s(items[2], { kind: "fail", reason: { code: null, error: "Timeout" } })).toBe(true);
    expect(await rowOf(rows[2].id)).toMatchObject({ status: "failed", lastStatusCode: null, lastError: "Timeout", lockedUntil: null });

    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await s({ ...items[3], attempts: 5 }, { kind: "ok", code: 200 })).toBe(false);
    warn.mockRestore();
    expect((await rowOf(rows[3].id)).status).toBe("pending");
  });

  it("through the claim loop: each performed outcome is written and its item counted done; a perform that throws is logged by kind, id and code only", async () => {
    const team = await createTeam();
    const db = await getDb();
    const rowOf = async (id: number) => (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0];
    const more = await db
      .insert(webhookDeliveries)
      .values(
        ["ok", "fail", "throw"].map((k) => ({
          teamId: team.id,
          targetKind: "bot" as const,
          targetId: 1,
          url: "http://127.0.0.1:9/unused",
          event: k,
          payload: { secret: "body-text" },
          nextAttemptAt: new Date(Date.now() - 1000),
        })),
      )
      .returning();
    const byId = new Map(more.map((r) => [r.id, r.event]));
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => void logged.push(String(line)));
    const stop = new AbortController();
    const loop = createClaimLoop({
      pollMs: 20,
      signal: stop.signal,
      tasks: [
        {
          name: "hooks",
          concurrency: 8,
          claim: async (limit) => claimDeliveries(await getDb(), { limit, leaseMs: 60_000, teamIds: [team.id] }),
          perform: async (c: DeliveryClaim) => {
            const event = byId.get(c.id);
            if (event === "throw") throw Object.assign(new Error("connect ECONNREFUSED body-text"), { code: "ECONNREFUSED" });
            return event === "ok"
              ? { kind: "ok" as const, code: 200 }
              : { kind: "fail" as const, reason: { code: 410, error: "HTTP 410" } };
          },
          writes: deliveryWrites,
        },
      ],
    });
    loop.start();
    await waitFor(
      () => rowOf(more[1].id),
      (r) => r.status === "failed",
    );
    await waitFor(
      () => Promise.resolve(logged.length),
      (n) => n >= 1,
    );
    stop.abort();
    await loop.stop();
    spy.mockRestore();
    expect((await rowOf(more[0].id)).status).toBe("delivered");
    expect(await rowOf(more[1].id)).toMatchObject({ status: "failed", lastStatusCode: 410, lastError: "HTTP 410" });
    // Left leased: claimed again once the lease runs out.
    expect(await rowOf(more[2].id)).toMatchObject({ status: "pending", attempts: 1 });
    expect((await rowOf(more[2].id)).lockedUntil).not.toBeNull();
    expect(logged).toEqual([`[worker] hooks ${more[2].id} failed (ECONNREFUSED)`]);
    expect(loop.inHand()).toEqual({ hooks: 0 });
  });
});

describe("settling read receipts", () => {
  it("ok: DONE; retry: PENDING after its delay with the error; fail: FAILED with it", async () => {
    const conv = await createConversation();
    const ms = await insertMessages(conv, [
      { providerMessageId: "wamid.S1" },
      { providerMessageId: "wamid.S2" },
      { providerMessageId: "wamid.S3" },
    ]);
    const db = await getDb();
    const rows = await db
      .insert(readReceipts)
      .values(
        ms.map((m) => ({
          teamId: conv.team.id,
          waNumberId: conv.number.id,
          messageId: m.id,
          providerMessageId: m.providerMessageId!,
          nextAttemptAt: new Date(Date.now() - 1000),
        })),
      )
      .returning();
    const items = (await claimReadReceipts(db, { limit: 10, leaseMs: 60_000, teamIds: [conv.team.id] })).sort((a, b) => a.id - b.id);
    const rowOf = async (id: number) => (await db.select().from(readReceipts).where(eq(readReceipts.id, id)))[0];
    const s = createSettle("receipts", receiptWrites, live);

    const results = await Promise.all([
      s(items[0], { kind: "ok" }),
      s(items[1], { kind: "retry", afterMs: 15_000, reason: { code: 130429, title: "Rate limit hit" } }),
      s(items[2], { kind: "fail", reason: { code: 100, title: "Invalid parameter" } }),
    ]);
    expect(results).toEqual([true, true, true]);
    expect(await rowOf(rows[0].id)).toMatchObject({ status: "DONE", error: null, lockedUntil: null });
    expect((await rowOf(rows[0].id)).doneAt).not.toBeNull();
    const retried = await rowOf(rows[1].id);
    expect(retried).toMatchObject({ status: "PENDING", lockedUntil: null, error: { code: 130429, title: "Rate limit hit" } });
    expect(near(retried.nextAttemptAt, 15_000)).toBe(true);
    expect(await rowOf(rows[2].id)).toMatchObject({
      status: "FAILED",
      lockedUntil: null,
      error: { code: 100, title: "Invalid parameter" },
    });
    // Settled already: the same claims again move nothing.
    expect(await s(items[0], { kind: "fail", reason: { code: null, title: "late" } })).toBe(false);
    expect((await rowOf(rows[0].id)).status).toBe("DONE");
  });
});
