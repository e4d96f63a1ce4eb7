import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql, Placeholder } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { conversationListQuery, listConversationRows, listValues, type ConversationFilter } from "@/lib/conversations/repo";
import { recentIdFloor } from "@/lib/conversations/recent-floor";
import { partitionBounds } from "@/lib/messages/history-repo";
import { ORDER_INVALID, listConversationsResponse } from "@/lib/conversations/schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createNumber, createTeam } from "../helpers/factories";
import { insertMessages } from "../helpers/history-factories";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const outbound = { sender: "SYSTEM", direction: "OUTBOUND", status: "SENDED", type: "template", payload: { name: "promo" } } as const;
/**
 * Four conversations, written in this order: Ana wrote first and waits; Beto wrote later and
 * waits; Caro wrote and was answered; Dani only received a broadcast (never wrote). Each message
 * carries its own time, a second after the previous one (the last a minute ago), so the waiting
 * order does not depend on how far apart the inserts ran.
 */
async function world() {
  const t0 = Date.now() - 60_000;
  const at = (i: number) => ({ createdAt: new Date(t0 + i * 1000) });
  const team = await createTeam();
  const number = await createNumber(team.id);
  const people = {
    ana: await createContact(team.id, { name: "Ana" }),
    beto: await createContact(team.id, { name: "Beto" }),
    caro: await createContact(team.id, { name: "Caro" }),
    dani: await createContact(team.id, { name: "Dani" }),
  };
  const conv = (contact: typeof people.ana) => ({ team, number, contact });
  await insertMessages(conv(people.ana), [{ ...at(0), payload: { text: "¿Hay talla M?" } }]);
  await insertMessages(conv(people.caro), [{ ...at(1), payload: { text: "Hola" } }]);
  await insertMessages(conv(people.beto), [{ ...at(2), payload: { text: "¿Envían hoy?" } }]);
  await insertMessages(conv(people.caro), [{ ...outbound, ...at(3) }]);
  await insertMessages(conv(people.dani), [{ ...outbound, ...at(4) }]);
  return { team, number, people, api: apiClient(server.url, team.token) };
}

const names = (body: unknown) => listConversationsResponse.parse(body).data.map((c) => c.contact.name);

describe("GET /api/v1/conversations: order and outbound_only", () => {
  it("order=waiting lists only the conversations waiting for a reply, the longest-waiting first, page by page", async () => {
    const w = await world();
    const all = await w.api.get(`/api/v1/conversations?wa_number=${w.number.number}`);
    expect(names(all.body)).toEqual(["Dani", "Caro", "Beto", "Ana"]);

    const waiting = await w.api.get(`/api/v1/conversations?wa_number=${w.number.number}&order=waiting&status=open`);
    expect(waiting.status).toBe(200);
    expect(names(waiting.body)).toEqual(["Ana", "Beto"]);

    // The cursor walks the same order.
    const p1 = await w.api.get(`/api/v1/conversations?order=waiting&per_page=1`);
    expect(names(p1.body)).toEqual(["Ana"]);
    const p2 = await w.api.get(`/api/v1/conversations?order=waiting&per_page=1&cursor=${p1.body.next_cursor}`);
    expect(names(p2.body)).toEqual(["Beto"]);
    expect(p2.body.next_cursor).toBeNull();
  });

  it("outbound_only=0 leaves out what the customer never wrote in; outbound_only=1 lists only those", async () => {
    const w = await world();
    const answered = await w.api.get(`/api/v1/conversations?status=open&outbound_only=0`);
    expect(names(answered.body)).toEqual(["Caro", "Beto", "Ana"]);
    const broadcastOnly = await w.api.get(`/api/v1/conversations?status=open&outbound_only=1`);
    expect(names(broadcastOnly.body)).toEqual(["Dani"]);
    expect(broadcastOnly.body.data[0].last_inbound_at).toBeNull();

    // Once Dani answers, the conversation moves over to the other side.
    await insertMessages({ team: w.team, number: w.number, contact: w.people.dani }, [{ payload: { text: "¿Y en azul?" } }]);
    expect(names((await w.api.get(`/api/v1/conversations?outbound_only=1`)).body)).toEqual([]);
    expect(names((await w.api.get(`/api/v1/conversations?outbound_only=0`)).body)[0]).toBe("Dani");
  });

  it("validates order and outbound_only; 401 without a token; another team's conversations never show", async () => {
    const w = await world();
    const bad = await w.api.get(`/api/v1/conversations?order=oldest`);
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ message: ORDER_INVALID, errors: { order: [ORDER_INVALID] } });
    const badFlag = await w.api.get(`/api/v1/conversations?outbound_only=yes`);
    expect(badFlag.status).toBe(422);
    expect(badFlag.body.errors).toEqual({ outbound_only: ["Debe ser 0 o 1."] });
    expect((await apiClient(server.url).get(`/api/v1/conversations?order=waiting`)).status).toBe(401);

    const other = await createTeam();
    const theirs = apiClient(server.url, other.token);
    for (const q of ["order=waiting", "outbound_only=1", "outbound_only=0"]) {
      const res = await theirs.get(`/api/v1/conversations?${q}`);
      expect(res.status).toBe(200);
      expect(res.body.data, q).toEqual([]);
    }
  });
});

/**
 * The generic plan of the prepared list statement (what production runs after a few executions):
 * PREPARE the very SQL the repository sends, then EXPLAIN EXECUTE it with plan_cache_mode forcing
 * the generic plan. Seq scans are off as in history-plan.test.ts: on a near-empty table the planner
 * would prefer one, which says nothing about the 5 M set; the point is that the index serves it.
 */
async function genericPlan(filter: ConversationFilter, recentLo = 0): Promise<string> {
  return withPrepared(filter, recentLo, async (tx, execute) => {
    await tx.execute(sql`SET LOCAL enable_seqscan = off`);
    await tx.execute(sql`SET LOCAL plan_cache_mode = force_generic_plan`);
    const rows = rowsOf<{ "QUERY PLAN": string }>(await tx.execute(sql.raw(`EXPLAIN (COSTS OFF) ${execute}`)));
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

/**
 * The very SQL the repository sends, PREPAREd in a transaction; `run` gets the EXECUTE with the
 * filter's values.
 */
async function withPrepared<T>(
  filter: ConversationFilter,
  recentLo: number,
  run: (tx: Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["transaction"]>[0]>[0], execute: string) => Promise<T>,
): Promise<T> {
  const db = await getDb();
  const { sql: text, params } = conversationListQuery(db, { filter, limit: 31, recentLo }).toSQL();
  const values = listValues(1, filter) as Record<string, unknown>;
  const literal = (p: unknown) => {
    const v = p instanceof Placeholder ? values[p.name] : p;
    return typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
  };
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`PREPARE conv_plan AS ${text}`));
    try {
      return await run(tx, `EXECUTE conv_plan(${params.map(literal).join(", ")})`);
    } finally {
      await tx.execute(sql.raw(`DEALLOCATE conv_plan`));
    }
  });
}

describe("conversation list plans", () => {
  it("each order and filter reads its index in the list's order: no sort, no walk past the other rows", async () => {
    await world();
    // As the inbox asks: one company number, open conversations.
    const plans = {
      abiertas: await genericPlan({ waNumberId: 1, status: "open", outboundOnly: false }),
      abiertasNextPage: await genericPlan({
        waNumberId: 1,
        status: "open",
        outboundOnly: false,
        before: { at: new Date().toISOString(), id: 5 },
      }),
      outboundOnly: await genericPlan({ waNumberId: 1, status: "open", outboundOnly: true }),
      waiting: await genericPlan({ status: "open", order: "waiting" }),
      waitingNextPage: await genericPlan({ status: "open", order: "waiting", before: { at: new Date().toISOString(), id: 5 } }),
    };
    if (process.env.CONVERSATION_PLAN_PRINT) console.log(JSON.stringify(plans, null, 2));
    expect(plans.abiertas).toMatch(/Index Scan using conversations_answered_activity_idx on conversations/);
    expect(plans.abiertasNextPage).toMatch(/Index Scan using conversations_answered_activity_idx on conversations/);
    expect(plans.abiertasNextPage).toMatch(/Index Cond: \(.*last_message_at <= /);
    expect(plans.outboundOnly).toMatch(/Index Scan using conversations_outbound_only_activity_idx on conversations/);
    expect(plans.waiting).toMatch(/Index Scan Backward using conversations_needs_reply_idx on conversations/);
    expect(plans.waitingNextPage).toMatch(/Index Scan Backward using conversations_needs_reply_idx on conversations/);
    // The keyset bound of the next page is an index condition, not a filter over every row.
    expect(plans.waitingNextPage).toMatch(/Index Cond: \(.*last_message_at >= /);
    for (const [name, text] of Object.entries(plans)) {
      // The page is the index's first rows, stopped at the page's size, before anything is joined.
      expect(text, name).toMatch(/-> {2}Limit\n\s+-> {2}Index Scan (Backward )?using conversations_\w+ on conversations/);
      // The rows come out of the index already in order: the page is never sorted (the only
      // Sort is inside the labels subplan, of one contact's labels).
      expect(text, name).not.toMatch(/Sort Key: conversations/);
      expect(text, name).not.toMatch(/Seq Scan on conversations|Bitmap Heap Scan on conversations/);
    }
  });
});

describe("the list's last messages", () => {
  it("are joined from the recent partitions only, and a row whose last message lies below is completed, never dropped", async () => {
    const w = await world();
    const db = await getDb();
    const floor = recentIdFloor(await partitionBounds(db));
    // The world's messages were written just now: the floor is their partition's first id, and
    // the partitions below it (messages_legacy at least) are left out of the plan.
    const plan = await genericPlan({ waNumberId: 1 }, floor);
    if (process.env.CONVERSATION_PLAN_PRINT) console.log(plan);
    expect(floor).toBeGreaterThan(-2147483648);
    expect(plan).toMatch(/on messages_\w+/);
    expect(plan).not.toMatch(/on messages_legacy/);
    // Left out when planned, not when the plan starts (which costing would not see).
    expect(plan).not.toMatch(/Subplans Removed/);

    // The floor is in the statement's text, not a value: a custom plan prunes no more than the
    // generic one, so under plan_cache_mode auto PostgreSQL settles on the generic plan after its
    // five custom ones instead of planning every page anew (as it did with the floor as a value).
    const plans = await withPrepared({ waNumberId: w.number.id }, floor, async (tx, execute) => {
      await tx.execute(sql`SET LOCAL plan_cache_mode = auto`);
      for (let i = 0; i < 10; i++) await tx.execute(sql.raw(execute));
      const [row] = rowsOf<{ generic_plans: number; custom_plans: number }>(
        await tx.execute(sql`SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'conv_plan'`),
      );
      return { generic: Number(row.generic_plans), custom: Number(row.custom_plans) };
    });
    expect(plans).toEqual({ generic: 5, custom: 5 });

    // Whatever the floor, the page is the same: above every id, every last message comes from the
    // second statement; below every id, all from the join.
    const listed = (recentLo: number) =>
      listConversationRows(db, { teamId: w.team.id, filter: { waNumberId: w.number.id }, limit: 21, recentLo }).then((rows) =>
        rows.map((r) => [r.contactName, r.message.id, r.message.direction, r.message.status]),
      );
    const joined = await listed(-2147483648);
    expect(joined.map((r) => r[0])).toEqual(["Dani", "Caro", "Beto", "Ana"]);
    expect(await listed(2147483647)).toEqual(joined);
    expect(await listed(floor)).toEqual(joined);
  });
});

describe("GET /api/v1/conversations: the last message's preview", () => {
  it("previews a template by its body (the list reads only that of its payload), and a payload of another shape by what is left, never a 500", async () => {
    const team = await createTeam();
    const number = await createNumber(team.id);
    const api = apiClient(server.url, team.token);
    const big = {
      name: "pedido_listo",
      language: { code: "es" },
      components: [
        { type: "HEADER", format: "IMAGE", example: { header_handle: ["https://files.example.com/a.jpg"] } },
        {
          type: "body",
          text: "Hola Ana, tu pedido A-17 está listo",
          parameters: Array.from({ length: 40 }, (_, i) => ({ type: "text", text: `p${i}` })),
        },
        { type: "BODY", text: "un segundo cuerpo no cuenta" },
        { type: "BUTTONS", buttons: Array.from({ length: 10 }, (_, i) => ({ type: "URL", text: `b${i}`, url: `https://e.example/${i}` })) },
      ],
    };
    const cases: [string, unknown, string][] = [
      ["Big", big, "📋 Hola Ana, tu pedido A-17 está listo"],
      ["NoBody", { name: "solo_nombre", components: [{ type: "HEADER", text: "x" }] }, "📋 solo_nombre"],
      ["BodyNotText", { name: "cuerpo_raro", components: [{ type: "BODY", text: 42 }] }, "📋 cuerpo_raro"],
      ["ComponentsObject", { name: "componentes_objeto", components: { type: "BODY", text: "no es una lista" } }, "📋 componentes_objeto"],
      ["Scalar", "solo texto", "📋"],
      ["List", [{ type: "BODY", text: "en una lista" }], "📋"],
    ];
    for (const [name, payload] of cases) {
      const contact = await createContact(team.id, { name });
      await insertMessages({ team, number, contact }, [{ ...outbound, payload: payload as never }]);
    }
    const res = await api.get(`/api/v1/conversations?per_page=50`);
    expect(res.status).toBe(200);
    const previews = new Map(listConversationsResponse.parse(res.body).data.map((c) => [c.contact.name, c.last_message?.preview]));
    for (const [name, , preview] of cases) expect(previews.get(name), name).toBe(preview);
  });
});
