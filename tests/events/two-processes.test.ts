import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { hashToken } from "@/lib/auth/tokens";
import { openSse, streamOpened } from "../helpers/sse";
import { appProcesses } from "./app-processes";
import { waitFor } from "../helpers/wait";

/**
 * Events fan out across processes through the event log each process tails: a label changed through one app
 * process reaches a stream held by another (two app processes on one server Postgres: app-processes.ts).
 */
const { startApp, databaseUrl } = appProcesses("wa_events");

describe("events across processes", { timeout: 120_000 }, () => {
  it("a label change written through one process arrives on a stream held by another", async () => {
    const writer = await startApp({ EVENTS_SETUP: "1" });
    const reader = await startApp();
    const { token, contactId, labelId } = writer.setup!;

    const stream = await openSse(`http://127.0.0.1:${reader.port}/api/v1/events`, { authorization: `Bearer ${token}` });
    expect(stream.status).toBe(200);
    await streamOpened(stream);

    const res = await fetch(`http://127.0.0.1:${writer.port}/api/v1/contacts/${contactId}/labels`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ label_ids: [labelId] }),
    });
    expect(res.status).toBe(200);
    const committedAt = Date.now();
    const event = await stream.next((e) => e.event === "contact.labels", 10_000);
    const latencyMs = Date.now() - committedAt;
    expect(JSON.parse(event.data)).toMatchObject({ contact_id: contactId, labels: [{ id: labelId }] });
    // Functional bound only (the bench measures latency): the other process read it from the log.
    console.log(`[events] cross-process delivery after commit: ${latencyMs} ms`);
    stream.close();
  });

  it("a token revoked through another connection is refused by a process that had cached it", async () => {
    const app = await startApp({ EVENTS_SETUP: "1" });
    const { token, contactId, labelId } = app.setup!;
    const labels = () =>
      fetch(`http://127.0.0.1:${app.port}/api/v1/contacts/${contactId}/labels`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ label_ids: [labelId] }),
      });
    // The first request starts the process's LISTEN (on a connection of its own, opened then); once
    // that is up (the connection idle after its LISTEN), the next ones are answered from its cache.
    const sql = postgres(databaseUrl(), { max: 1, onnotice: () => {} });
    const [{ before }] = await sql`SELECT clock_timestamp() AS before`;
    expect((await labels()).status).toBe(200);
    const listening = await waitFor(
      async () =>
        (
          await sql`SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND backend_start > ${before} AND state = 'idle'
              AND query ILIKE ${"listen%wa_auth%"}`
        )[0].n,
      (n) => n > 0,
      10_000,
      20,
      "return",
    );
    expect(listening).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect((await labels()).status).toBe(200);

    // Revoked by hand, as an operator would in psql: the api_tokens trigger announces it.
    try {
      const [row] = await sql`UPDATE api_tokens SET revoked_at = now() WHERE token_hash = ${hashToken(token)} RETURNING id`;
      expect(row).toBeDefined();
    } finally {
      await sql.end();
    }
    const revokedAt = Date.now();
    const status = await waitFor(
      async () => (await labels()).status,
      (s) => s !== 200,
      2_000,
      10,
      "return",
    );
    // Well inside the cache's 10 s trust: the NOTIFY dropped the entry, not its age.
    expect(status).toBe(401);
    console.log(`[auth] revocation honoured by the caching process after ${Date.now() - revokedAt} ms`);
  });
});
