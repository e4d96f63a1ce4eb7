import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/db/client";
import { threadPageQuery } from "@/lib/conversations/thread-repo";
import { CURSOR_INVALID } from "@/lib/conversations/schemas";
import { conversationMessagesResponse } from "@/lib/conversations/thread-schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createNumber, createTeam } from "../helpers/factories";
import { insertMessages, minuteSeries } from "../helpers/history-factories";
import { rolledBack } from "../helpers/rolled-back";

/**
 * `GET /api/v1/conversations/{id}/messages`, the inbox thread's pages (docs/features/inbox.md,
 * "The thread's pages"): the newest N in one request whatever the conversation's age, older pages
 * by `next_cursor`, only the team's own conversation.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function world() {
  const team = await createTeam();
  const number = await createNumber(team.id);
  const contact = await createContact(team.id);
  const api = apiClient(server.url, team.token);
  return { team, number, contact, api, conv: { team, number, contact } };
}

async function conversationId(api: ReturnType<typeof apiClient>, contactId: number): Promise<number> {
  const list = await api.get("/api/v1/conversations?per_page=100");
  expect(list.status).toBe(200);
  const found = (list.body.data as { id: number; contact: { id: number } }[]).find((c) => c.contact.id === contactId);
  expect(found).toBeDefined();
  return found!.id;
}

const page = (body: unknown) => conversationMessagesResponse.parse(body);

describe("GET /api/v1/conversations/{id}/messages", () => {
  it("answers the newest N first, then older pages by cursor, each message once", async () => {
    const w = await world();
    const inserted = await insertMessages(w.conv, minuteSeries("2026-01-05T10:00:00Z", 120));
    const id = await conversationId(w.api, w.contact.id);
    const newestFirst = inserted.map((m) => m.id).sort((a, b) => b - a);

    const first = await w.api.get(`/api/v1/conversations/${id}/messages?per_page=50`);
    expect(first.status).toBe(200);
    const p1 = page(first.body);
    expect(p1.data.map((m) => m.id)).toEqual(newestFirst.slice(0, 50));
    // The dashboard's extras are always there.
    expect(p1.data[0]).toMatchObject({ update_id: inserted.find((m) => m.id === newestFirst[0])!.updateId, error: null, routed_to: null });
    expect(p1.next_cursor).toEqual(expect.any(String));

    const p2 = page((await w.api.get(`/api/v1/conversations/${id}/messages?per_page=50&cursor=${p1.next_cursor}`)).body);
    expect(p2.data.map((m) => m.id)).toEqual(newestFirst.slice(50, 100));
    const p3 = page((await w.api.get(`/api/v1/conversations/${id}/messages?per_page=50&cursor=${p2.next_cursor}`)).body);
    expect(p3.data.map((m) => m.id)).toEqual(newestFirst.slice(100));
    expect(p3.next_cursor).toBeNull();

    // A page that ends exactly at the oldest message says so (no empty page to ask for).
    const exact = page((await w.api.get(`/api/v1/conversations/${id}/messages?per_page=20&cursor=${p2.next_cursor}`)).body);
    expect(exact.data).toHaveLength(20);
    expect(exact.next_cursor).toBeNull();

    // Default size 50.
    expect(page((await w.api.get(`/api/v1/conversations/${id}/messages`)).body).data).toHaveLength(50);
  });

  it("serves a conversation spread over eight years in one request and one index scan that stops at N", async () => {
    const w = await world();
    const years = ["2018-02-01", "2019-07-15", "2021-03-10", "2023-11-30", "2025-06-01"];
    await insertMessages(
      w.conv,
      years.map((d, i) => ({ createdAt: new Date(`${d}T12:00:00Z`), payload: { text: `año ${i}` } })),
    );
    const newest = await insertMessages(w.conv, [{ payload: { text: "hoy" } }, { payload: { text: "ahora" } }]);
    const id = await conversationId(w.api, w.contact.id);

    // The old walk asked for 38 windows of 89 days; the thread's first page is one request.
    const one = page((await w.api.get(`/api/v1/conversations/${id}/messages?per_page=3`)).body);
    expect(one.data.map((m) => (m.payload as { text: string }).text)).toEqual(["ahora", "hoy", "año 4"]);
    const all = page((await w.api.get(`/api/v1/conversations/${id}/messages`)).body);
    expect(all.data).toHaveLength(7);
    expect(all.data[0].id).toBe(newest[1].id);
    expect(all.next_cursor).toBeNull();

    // One statement, read through the history index in id order under a LIMIT: no sort, no date
    // window, nothing read past the page (the `+ 1` row that tells whether older ones remain).
    // As the tables are, and with the statistics ANALYZE gathers (rolled back with the rest).
    for (const analysed of [false, true]) {
      const plan = await rolledBack(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        if (analysed) await tx.execute(sql`ANALYZE messages`);
        const query = threadPageQuery(tx, {
          teamId: w.team.id,
          conversationId: id,
          beforeId: null,
          limit: 4,
        });
        const rows = rowsOf<{ "QUERY PLAN": string }>(
          await tx.execute(sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${query}`),
        );
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
      expect(plan).toMatch(/^Limit \(actual rows=4/);
      expect(plan).toMatch(/Index Scan Backward using messages_\w+_history_idx/);
      expect(plan).not.toMatch(/Sort/);
      expect(plan).not.toMatch(/created_at/);
    }

    // With a cursor: the same index, the cursor an index condition.
    const cursorPlan = await rolledBack(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const query = threadPageQuery(tx, {
        teamId: w.team.id,
        conversationId: id,
        beforeId: newest[0].id,
        limit: 3,
      });
      const rows = rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql`EXPLAIN (COSTS OFF) ${query}`));
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(cursorPlan).toMatch(
      /Index Scan Backward using messages_\w+_history_idx[^\n]*\n\s+Index Cond: \(\(ROW\(team_id, wa_number_id, contact_id, id\) < ROW/,
    );
    expect(cursorPlan).not.toMatch(/Sort/);
  });

  it("shows only the team's own conversation and only that conversation's messages", async () => {
    const w = await world();
    await insertMessages(w.conv, [{ payload: { text: "mío" } }]);
    // Another customer on the same number, and another team.
    const other = await createContact(w.team.id);
    await insertMessages({ ...w.conv, contact: other }, [{ payload: { text: "de otro cliente" } }]);
    const stranger = await createTeam();
    const strangerNumber = await createNumber(stranger.id);
    const strangerContact = await createContact(stranger.id);
    await insertMessages({ team: stranger, number: strangerNumber, contact: strangerContact }, [{ payload: { text: "ajeno" } }]);
    const id = await conversationId(w.api, w.contact.id);

    const mine = page((await w.api.get(`/api/v1/conversations/${id}/messages`)).body);
    expect(mine.data.map((m) => (m.payload as { text: string }).text)).toEqual(["mío"]);

    const foreign = await apiClient(server.url, stranger.token).get(`/api/v1/conversations/${id}/messages`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Conversación no encontrada." });
    const strangerId = await conversationId(apiClient(server.url, stranger.token), strangerContact.id);
    expect((await w.api.get(`/api/v1/conversations/${strangerId}/messages`)).status).toBe(404);
  });

  it("refuses a bad cursor or size and answers 401 without credentials", async () => {
    const w = await world();
    await insertMessages(w.conv, [{}]);
    const id = await conversationId(w.api, w.contact.id);
    const bad = await w.api.get(`/api/v1/conversations/${id}/messages?cursor=zz`);
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ message: CURSOR_INVALID, errors: { cursor: [CURSOR_INVALID] } });
    expect((await w.api.get(`/api/v1/conversations/${id}/messages?per_page=101`)).status).toBe(422);
    expect((await w.api.get(`/api/v1/conversations/abc/messages`)).status).toBe(404);
    expect((await apiClient(server.url).get(`/api/v1/conversations/${id}/messages`)).status).toBe(401);
  });
});
