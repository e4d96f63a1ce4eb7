import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContact, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createQueuedMessage, messageById, statusesOf, waitFor } from "../helpers/delivery-factories";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";
import { startRemoteFakeGraph } from "../fakes/graph-remote";
import { workerPool } from "../helpers/workers";

let graph: FakeGraph;
const workers = workerPool({ pollMs: 100, leaseMs: 300, backoffBaseMs: 20, backoffCapMs: 50 });

beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  // Long enough that a send is never abandoned (and retried) while the fake is still answering.
  process.env.GRAPH_TIMEOUT_MS = "10000";
});
afterAll(async () => {
  await workers.stopAll();
  await graph.close();
});

async function queue(count: number, mps: number) {
  const team = await createTeam();
  const number = await createCloudNumber(team.id, { messagesPerSecond: mps });
  const contact = await createContact(team.id);
  const template = await createTemplate(team.id);
  const rows = [];
  for (let i = 0; i < count; i++) {
    rows.push(
      await createQueuedMessage({
        teamId: team.id,
        waNumberId: number.id,
        contact,
        template,
        headerParam: { key: "1", value: "x" },
        bodyParams: [
          { key: "1", value: `m${i}` },
          { key: "2", value: "b" },
        ],
      }),
    );
  }
  return { team, number, rows };
}

/** How many times the fake received each message (identified by its body's first value). */
function receivedCounts(phoneNumberId: string) {
  const counts = new Map<string, number>();
  for (const r of graph.sends(phoneNumberId)) {
    const key = r.body.template.components.find((c: any) => c.type === "body").parameters[0].text;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe("delivery worker", () => {
  it("loses nothing and sends nothing twice when a worker dies mid-batch and another takes over", { timeout: 120_000 }, async () => {
    const { team, number, rows } = await queue(10, 4);
    const ids = rows.map((r) => r.id);
    // A crashed worker's leases cover its slot wait plus the send timeout: keep both short here.
    process.env.GRAPH_TIMEOUT_MS = "1500";
    const a = workers.start({ teamIds: [team.id], claimAheadSec: 10 });
    // A claimed the whole batch and paces it at 4/s. Once two sends are committed and nothing is
    // in flight (the next slot is a quarter second away), A "crashes" without a word to the database.
    await waitFor(
      async () => ({
        sended: (await statusesOf(ids)).filter((m) => m.status === "SENDED").length,
        seen: graph.sends(number.phoneNumberId).length,
      }),
      (v) => v.sended >= 2 && v.sended === v.seen,
      15_000,
      10,
    );
    a.kill();
    const sentByA = graph.sends(number.phoneNumberId).length;
    expect(sentByA).toBeGreaterThanOrEqual(2);
    expect(sentByA).toBeLessThan(10);
    const stranded = (await Promise.all(rows.map((r) => messageById(r.id)))).filter((m) => m.status === "QUEUED");
    expect(stranded.length).toBe(10 - sentByA);
    expect(stranded.every((m) => m.lockedUntil !== null)).toBe(true);

    // B cannot take A's claims while their leases hold, and takes every one once they expire.
    // B's own leases are long (as in production): a short one could expire mid-send on a loaded
    // machine and let B claim its own message again, which is the at-least-once window, not
    // what this test is about.
    // (A's expired leases wait the uncertain grace for a status webhook first; none comes here.)
    workers.start({ teamIds: [team.id], leaseMs: 15_000, uncertainGraceMs: 500 });
    await waitFor(
      () => statusesOf(ids),
      (ms) => ms.every((m) => m.status === "SENDED"),
      60_000,
      100,
    );
    const final = await Promise.all(ids.map(messageById));
    const counts = receivedCounts(number.phoneNumberId);
    expect(counts.size).toBe(10);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(final.map((m) => m.providerMessageId)).size).toBe(10);
    // The stranded ones were claimed again (by B; a slow claim may even be re-claimed) but sent once.
    const strandedIds = new Set(stranded.map((m) => m.id));
    expect(final.filter((m) => strandedIds.has(m.id)).every((m) => m.attempts >= 2)).toBe(true);
    expect(final.filter((m) => !strandedIds.has(m.id)).every((m) => m.attempts === 1)).toBe(true);
    process.env.GRAPH_TIMEOUT_MS = "10000";
  });

  it("several concurrent workers send each message exactly once", { timeout: 120_000 }, async () => {
    const { team, number, rows } = await queue(30, 200);
    // Leases long enough that none expires mid-send however loaded the machine: what is tested
    // here is that concurrent claims (FOR UPDATE SKIP LOCKED) never hand one message to two workers.
    for (let i = 0; i < 3; i++) workers.start({ teamIds: [team.id], concurrency: 4, leaseMs: 15_000 });
    await waitFor(
      () => statusesOf(rows.map((r) => r.id)),
      (ms) => ms.every((m) => m.status === "SENDED"),
      90_000,
      100,
    );
    const counts = receivedCounts(number.phoneNumberId);
    expect(counts.size).toBe(30);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(graph.sends(number.phoneNumberId)).toHaveLength(30);
  });

  it(
    "several concurrent workers send each message exactly once when the claim's own lease covers the send",
    { timeout: 120_000 },
    async () => {
      // With a 30 s lease (the default) and a short Graph timeout, claims skip the lease extension
      // and go straight to the slot reservation (worker.ts, reserve): the claim's lease is the fence.
      const { team, number, rows } = await queue(40, 100_000);
      for (let i = 0; i < 3; i++) workers.start({ teamIds: [team.id], concurrency: 8, leaseMs: 30_000 });
      await waitFor(
        () => statusesOf(rows.map((r) => r.id)),
        (ms) => ms.every((m) => m.status === "SENDED"),
        90_000,
        100,
      );
      const counts = receivedCounts(number.phoneNumberId);
      expect(counts.size).toBe(40);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      expect(graph.sends(number.phoneNumberId)).toHaveLength(40);
      expect((await Promise.all(rows.map((r) => messageById(r.id)))).every((m) => m.attempts === 1)).toBe(true);
    },
  );

  it("never exceeds the number's messages_per_second, across two workers", { timeout: 120_000 }, async () => {
    const mps = 5;
    const { team, rows } = await queue(16, mps);
    // Arrivals are stamped by a fake in its own process: an in-process fake would stamp them
    // whenever this process's event loop (busy with PGlite and the workers) gets round to it.
    const remote = await startRemoteFakeGraph();
    process.env.GRAPH_API_BASE_URL = remote.url;
    try {
      // The limit holds when sends leave (shared slots + late re-reservation, lib/delivery/pacing.ts);
      // what lies between leaving and arriving is the machine's. A 100 % headroom spaces slots
      // 400 ms apart and leaves 500 ms for this shared 2-core box's scheduling stalls (load
      // averages of 10+ were seen): a stall that makes two sends arrive together still leaves
      // the window at 5. At 50 % (300 ms apart) a CI run on the embedded database saw two
      // sends of slots 300 ms apart arrive 1 ms apart after a 1.16 s stall, and 6 arrivals in
      // 938 ms. Without pacing all 16 would arrive within a few milliseconds.
      const opts = { teamIds: [team.id], pacingHeadroom: 1, leaseMs: 15_000 };
      workers.start(opts);
      workers.start(opts);
      await waitFor(
        () => statusesOf(rows.map((r) => r.id)),
        (ms) => ms.every((m) => m.status === "SENDED"),
        90_000,
        100,
      );
      const times = (await remote.sends()).map((r) => r.at).sort((x, y) => x - y);
      expect(times).toHaveLength(16);
      const windows = times.map((t) => times.filter((u) => u >= t && u < t + 1000).length);
      expect(Math.max(...windows), `arrivals (ms): ${times.map((t) => t - times[0]).join(", ")}`).toBeLessThanOrEqual(mps);
      // 16 sends at no more than 2.5/s (5/s less the headroom) cannot take less than 6 s. No
      // upper bound: on an overloaded box late workers give slots back and it takes longer.
      expect(times[15] - times[0]).toBeGreaterThan(5000);
    } finally {
      process.env.GRAPH_API_BASE_URL = graph.url;
      await remote.close();
    }
  });
});
