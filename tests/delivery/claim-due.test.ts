import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { readReceipts, webhookDeliveries } from "@/db/schema";
import { claimReadReceipts } from "@/lib/delivery/read-receipts-repo";
import { claimDeliveries } from "@/lib/outgoing-webhooks/deliveries-repo";
import { createTeam } from "../helpers/factories";
import { createConversation, insertMessages } from "../helpers/history-factories";
import { waitFor } from "../helpers/wait";

/**
 * The lease claim that read receipts and webhook deliveries share (lib/delivery/claim-due-repo.ts):
 * due pending rows only, earliest due first, never one row to two claims while its lease runs,
 * `attempts` bumped by every claim, the worker's teams only.
 */
const ago = (ms: number) => new Date(Date.now() - ms);

async function deliveries(teamId: number, rows: Partial<typeof webhookDeliveries.$inferInsert>[]) {
  const db = await getDb();
  const values = rows.map((r) => ({
    teamId,
    targetKind: "bot" as const,
    targetId: 1,
    url: "http://127.0.0.1:9/unused",
    event: "message.received",
    payload: {},
    ...r,
  }));
  return db.insert(webhookDeliveries).values(values).returning();
}

describe("claimDeliveries", () => {
  it("claims the team's due pending rows, earliest due first, and bumps attempts", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const [late, early, future, delivered] = await deliveries(team.id, [
      { nextAttemptAt: ago(1_000) },
      { nextAttemptAt: ago(5_000) },
      { nextAttemptAt: new Date(Date.now() + 60_000) },
      { nextAttemptAt: ago(9_000), status: "delivered" },
    ]);
    const [foreign] = await deliveries(other.id, [{ nextAttemptAt: ago(9_000) }]);

    const claimed = await claimDeliveries(await getDb(), { limit: 10, leaseMs: 60_000, teamIds: [team.id] });
    expect(claimed.map((c) => c.id).sort((a, b) => a - b)).toEqual([late.id, early.id].sort((a, b) => a - b));
    expect(claimed.every((c) => c.attempts === 1)).toBe(true);
    const ids = claimed.map((c) => c.id);
    expect(ids).not.toContain(future.id);
    expect(ids).not.toContain(delivered.id);
    expect(ids).not.toContain(foreign.id);

    // Limit 1 takes the earliest due.
    const [a] = await deliveries(other.id, [{ nextAttemptAt: ago(100) }]);
    expect((await claimDeliveries(await getDb(), { limit: 1, leaseMs: 60_000, teamIds: [other.id] })).map((c) => c.id)).toEqual([
      foreign.id,
    ]);
    expect((await claimDeliveries(await getDb(), { limit: 1, leaseMs: 60_000, teamIds: [other.id] })).map((c) => c.id)).toEqual([a.id]);
  });

  it("never hands a leased row to a second claim, and claims it again once the lease ran out", async () => {
    const team = await createTeam();
    const rows = await deliveries(
      team.id,
      Array.from({ length: 6 }, (_, i) => ({ nextAttemptAt: ago(1_000 + i) })),
    );
    const [x, y] = await Promise.all([
      claimDeliveries(await getDb(), { limit: 3, leaseMs: 60_000, teamIds: [team.id] }),
      claimDeliveries(await getDb(), { limit: 3, leaseMs: 60_000, teamIds: [team.id] }),
    ]);
    const both = [...x, ...y].map((c) => c.id).sort((a, b) => a - b);
    expect(both).toEqual(rows.map((r) => r.id).sort((a, b) => a - b));
    expect(await claimDeliveries(await getDb(), { limit: 10, leaseMs: 60_000, teamIds: [team.id] })).toEqual([]);

    const [short] = await deliveries(team.id, [{ nextAttemptAt: ago(1_000) }]);
    expect(await claimDeliveries(await getDb(), { limit: 10, leaseMs: 1, teamIds: [team.id] })).toEqual([{ id: short.id, attempts: 1 }]);
    // The lease is the database's clock (now() + 1 ms): claimed again as soon as that has passed.
    const again = await waitFor(
      async () => claimDeliveries(await getDb(), { limit: 10, leaseMs: 60_000, teamIds: [team.id] }),
      (claimed) => claimed.length > 0,
      5_000,
      5,
    );
    expect(again).toEqual([{ id: short.id, attempts: 2 }]);
  });
});

describe("claimReadReceipts", () => {
  it("claims a due receipt with its number and wamid, once while leased, and skips done ones", async () => {
    const conv = await createConversation();
    const [m1, m2] = await insertMessages(conv, [{ providerMessageId: "wamid.R1" }, { providerMessageId: "wamid.R2" }]);
    const db = await getDb();
    const [due] = await db
      .insert(readReceipts)
      .values([
        { teamId: conv.team.id, waNumberId: conv.number.id, messageId: m1.id, providerMessageId: "wamid.R1", nextAttemptAt: ago(1_000) },
        { teamId: conv.team.id, waNumberId: conv.number.id, messageId: m2.id, providerMessageId: "wamid.R2", status: "DONE" },
      ])
      .returning();
    const claimed = await claimReadReceipts(await getDb(), { limit: 10, leaseMs: 60_000, teamIds: [conv.team.id] });
    expect(claimed).toEqual([{ id: due.id, teamId: conv.team.id, waNumberId: conv.number.id, providerMessageId: "wamid.R1", attempts: 1 }]);
    expect(await claimReadReceipts(await getDb(), { limit: 10, leaseMs: 60_000, teamIds: [conv.team.id] })).toEqual([]);
  });
});
