import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { messages } from "@/db/schema";
import { LABEL_NOT_FOUND } from "@/lib/labels/schemas";
import { missingBodyKey } from "@/lib/messages/send-params";
import { paramEmptyFor } from "@/lib/broadcasts/recipient";
import { BROADCAST_NOT_FOUND, unknownColumn } from "@/lib/broadcasts/schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createBot, createNumber } from "../helpers/factories";
import { broadcastMessages, broadcastTeam, body, createContact, rejectionsOf } from "./helpers";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const B = "/api/v1/broadcasts";

async function world() {
  const t = await broadcastTeam();
  const number = await createNumber(t.team.id);
  const { vip, promo, baja } = t.labels;
  const c = {
    vipOnly: await createContact(t.team.id, { name: "Ana", labelIds: [vip.id] }),
    vipPromo: await createContact(t.team.id, { name: "Beto", labelIds: [vip.id, promo.id] }),
    promoOnly: await createContact(t.team.id, { name: "Caro", labelIds: [promo.id] }),
    vipBaja: await createContact(t.team.id, { name: "Dani", labelIds: [vip.id, baja.id] }),
    noName: await createContact(t.team.id, { name: "", labelIds: [vip.id] }),
    noNumber: await createContact(t.team.id, { name: "Eva", customerNumber: null, labelIds: [vip.id] }),
    none: await createContact(t.team.id, { name: "Fede" }),
  };
  return { ...t, number, c, api: apiClient(server.url, t.team.token) };
}

describe("POST /api/v1/broadcasts", () => {
  it("queues one message per audience contact, and sets aside (with its reason) a contact whose {{name}} is empty", async () => {
    const w = await world();
    const { vip, baja } = w.labels;
    const res = await w.api.post(
      B,
      body({ wa_number: w.number.number, template_name: w.template.name, audience: { labels_any: [vip.id], labels_exclude: [baja.id] } }),
    );
    expect(res.status).toBe(201);
    expect(res.body.message).toBe("Difusión creada: 2 destinatarios en cola, 1 rechazados.");
    const b = res.body.data;
    expect(b).toMatchObject({
      name: "Black Friday",
      wa_number: w.number.number,
      template: { id: w.template.id, name: w.template.name, language: "es_CO" },
      status: "SENDING",
      sent_group: "Black Friday",
      scheduled_at: null,
      audience: { labels_any: [vip.id], labels_all: [], labels_exclude: [baja.id] },
      counts: { recipients: 3, rejected: 1, queued: 2, sended: 0, failed: 0, cancelled: 0, replied: 0 },
    });

    const rows = await broadcastMessages(w.team.id, b.id);
    expect(rows.map((r) => r.contactId).sort()).toEqual([w.c.vipOnly.id, w.c.vipPromo.id].sort());
    const ana = rows.find((r) => r.contactId === w.c.vipOnly.id)!;
    expect(ana).toMatchObject({
      status: "QUEUED",
      direction: "OUTBOUND",
      sentGroup: "Black Friday",
      responseHandler: "CAMPAIGN",
      customerNumber: w.c.vipOnly.customerNumber,
      sendParams: {
        header_param: { key: "1", value: "Ana" },
        body_params: [
          { key: "1", value: `BF-${w.c.vipOnly.customerId}` },
          { key: "2", value: "viernes" },
        ],
      },
    });
    expect(ana.nextAttemptAt).not.toBeNull();
    const components = (ana.payload as { components: { type: string; text?: string }[] }).components;
    expect(components.find((x) => x.type === "HEADER")?.text).toBe("Hola Ana");
    expect(components.find((x) => x.type === "BODY")?.text).toBe(`Tu pedido BF-${w.c.vipOnly.customerId} llega el viernes.`);

    // Conversations are kept as for any message; the live stream gets one broadcast.updated, not a
    // message.created per recipient.
    const db = await getDb();
    const kinds = await db.execute(
      sql`SELECT type, count(*)::int AS n FROM events WHERE team_id = ${w.team.id} GROUP BY type ORDER BY type`,
    );
    const byType = Object.fromEntries(rowsOf<{ type: string; n: number }>(kinds).map((r) => [r.type, r.n]));
    expect(byType["message.created"]).toBeUndefined();
    expect(byType["broadcast.updated"]).toBeGreaterThanOrEqual(1);
    const convs = await db.execute(
      sql`SELECT contact_id, last_message_id FROM conversations WHERE team_id = ${w.team.id} ORDER BY contact_id`,
    );
    expect(rowsOf<{ contact_id: number }>(convs).map((r) => r.contact_id)).toEqual([w.c.vipOnly.id, w.c.vipPromo.id].sort((x, y) => x - y));

    const rejected = await rejectionsOf(w.team.id, b.id);
    expect(rejected).toHaveLength(1);
    expect(rejected[0].contactId).toBe(w.c.noName.id);
    expect(rejected[0].errors).toEqual({ "header_param.value": [paramEmptyFor("1", ["name"])] });

    const list = await w.api.get(`${B}/${b.id}/recipients?status=REJECTED`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        contact: { id: w.c.noName.id, name: "", customer_number: w.c.noName.customerNumber },
        update_id: null,
        status: "REJECTED",
        error: { code: null, title: paramEmptyFor("1", ["name"]) },
        replied: false,
        updated_at: expect.any(String),
      },
    ]);
  });

  it("applies labels_all, sent_group and the reply routing of 4.1", async () => {
    const w = await world();
    const bot = await createBot(w.team.id);
    const res = await w.api.post(
      B,
      body({
        wa_number: w.number.number,
        template_name: w.template.name,
        audience: { labels_all: [w.labels.vip.id, w.labels.promo.id] },
        sent_group: "bf-2026",
        response_handler: "CHATBOT",
        bot_id: bot.id,
      }),
    );
    expect(res.status).toBe(201);
    const rows = await broadcastMessages(w.team.id, res.body.data.id);
    expect(rows.map((r) => r.contactId)).toEqual([w.c.vipPromo.id]);
    expect(rows[0]).toMatchObject({ sentGroup: "bf-2026", responseHandler: "CHATBOT", botId: bot.id });
  });

  it("refuses, with the texts of 4.1, what every recipient shares: a missing body parameter, an unknown column, another team's label", async () => {
    const w = await world();
    const other = await broadcastTeam();
    const base = { wa_number: w.number.number, template_name: w.template.name, audience: { labels_any: [w.labels.vip.id] } };

    const missing = await w.api.post(B, body({ ...base, body_params: [{ key: "1", value: "x" }] }));
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ body_params: [missingBodyKey("2")] });

    const column = await w.api.post(
      B,
      body({
        ...base,
        body_params: [
          { key: "1", value: "{{email}}" },
          { key: "2", value: "x" },
        ],
      }),
    );
    expect(column.status).toBe(422);
    expect(column.body.errors).toEqual({ "body_params.0.value": [unknownColumn("email")] });

    const foreign = await w.api.post(
      B,
      body({ ...base, audience: { labels_any: [w.labels.vip.id], labels_exclude: [other.labels.vip.id] } }),
    );
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual({ "audience.labels_exclude": [LABEL_NOT_FOUND] });

    const empty = await w.api.post(B, body({ ...base, audience: { labels_exclude: [w.labels.vip.id] } }));
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors)).toEqual(["audience.labels_any"]);

    const db = await getDb();
    const [{ n }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(eq(messages.teamId, w.team.id));
    expect(n).toBe(0);
  });

  it("accepts {index, value} parameters as {key, value}", async () => {
    const w = await world();
    const res = await w.api.post(
      B,
      body({
        wa_number: w.number.number,
        template_name: w.template.name,
        audience: { labels_all: [w.labels.promo.id] },
        header_param: { index: 1, value: "Hola" },
        body_params: [
          { index: 1, value: "{{number}}" },
          { index: 2, value: "hoy" },
        ],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data.counts.queued).toBe(2);
  });
});

describe("tenancy", () => {
  it("answers 404 for another team's broadcast on every route", async () => {
    const w = await world();
    const created = await w.api.post(
      B,
      body({ wa_number: w.number.number, template_name: w.template.name, audience: { labels_any: [w.labels.vip.id] } }),
    );
    const id = created.body.data.id;
    const stranger = apiClient(server.url, (await broadcastTeam()).team.token);
    for (const [method, path] of [
      ["GET", `${B}/${id}`],
      ["POST", `${B}/${id}/pause`],
      ["POST", `${B}/${id}/resume`],
      ["POST", `${B}/${id}/cancel`],
      ["GET", `${B}/${id}/recipients`],
      ["GET", `${B}/${id}/recipients?format=csv`],
      ["GET", `${B}/${id}/timeline`],
    ] as const) {
      const res = await stranger.raw(method, path);
      expect([path, res.status, res.body?.message]).toEqual([path, 404, BROADCAST_NOT_FOUND]);
    }
    const list = await stranger.get(B);
    expect(list.body.data).toEqual([]);
    // Untouched by the stranger's cancel.
    expect((await w.api.get(`${B}/${id}`)).body.data.status).toBe("SENDING");
  });
});

describe("counts and recipients", () => {
  it("counts per status, replies and failures by code as a brute-force count over the rows does", async () => {
    const w = await world();
    const extra = await Promise.all(
      Array.from({ length: 14 }, (_, i) => createContact(w.team.id, { name: `P${i}`, labelIds: [w.labels.promo.id] })),
    );
    const created = await w.api.post(
      B,
      body({ wa_number: w.number.number, template_name: w.template.name, audience: { labels_any: [w.labels.promo.id] } }),
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const rows = (await broadcastMessages(w.team.id, id)).sort((a, b) => a.id - b.id);
    expect(rows).toHaveLength(extra.length + 2);

    // Move the messages along as the worker and the status webhooks would.
    const db = await getDb();
    const plan: [string, object | null][] = [
      ["SENDED", null],
      ["SENT", null],
      ["DELIVERED", null],
      ["READED", null],
      ["FAILED", { code: 131026, title: "Message undeliverable" }],
      ["FAILED", { code: 131047, title: "Re-engagement message" }],
      ["FAILED", { code: 131026, title: "Message undeliverable" }],
      ["QUEUED", null],
    ];
    for (const [i, row] of rows.entries()) {
      const [status, error] = plan[i % plan.length];
      await db
        .update(messages)
        .set({ status: status as "QUEUED", error: error as null })
        .where(eq(messages.id, row.id));
    }
    // Two customers answer after the broadcast (one of them answered to a message that went out).
    const repliers = [rows[2], rows[4]];
    for (const r of repliers) {
      await db.insert(messages).values({
        teamId: w.team.id,
        waNumberId: r.waNumberId,
        contactId: r.contactId,
        direction: "INBOUND",
        type: "text",
        status: "RECEIVED",
        sender: "CUSTOMER",
        payload: { text: "me interesa" },
        customerNumber: r.customerNumber,
      });
    }

    const got = (await w.api.get(`${B}/${id}`)).body.data;
    const fresh = await db
      .select()
      .from(messages)
      .where(
        inArray(
          messages.id,
          rows.map((r) => r.id),
        ),
      );
    const by = (s: string) => fresh.filter((m) => m.status === s).length;
    expect(got.counts).toEqual({
      recipients: rows.length,
      rejected: 0,
      queued: by("QUEUED"),
      sended: by("SENDED"),
      sent: by("SENT"),
      delivered: by("DELIVERED"),
      readed: by("READED"),
      failed: by("FAILED"),
      cancelled: 0,
      // rows[4] failed: a reply is only counted for a message that went out.
      replied: 1,
    });
    const codes = new Map<number, number>();
    for (const m of fresh.filter((x) => x.status === "FAILED")) codes.set(m.error!.code!, (codes.get(m.error!.code!) ?? 0) + 1);
    expect(got.failures_by_code).toEqual(
      [...codes]
        .map(([code, count]) => ({ code, title: code === 131026 ? "Message undeliverable" : "Re-engagement message", count }))
        .sort((a, b) => b.count - a.count),
    );

    // The recipients list: filtered by status, paginated, with its replied flag.
    const failedPage = await w.api.get(`${B}/${id}/recipients?status=FAILED&per_page=2&page=1`);
    expect(failedPage.body.pagination).toEqual({
      total_items: by("FAILED"),
      items_per_page: 2,
      current_page: 1,
      total_pages: Math.ceil(by("FAILED") / 2),
    });
    expect(failedPage.body.data.every((r: { status: string; error: unknown }) => r.status === "FAILED" && r.error)).toBe(true);
    const all = await w.api.get(`${B}/${id}/recipients?per_page=100`);
    expect(all.body.data).toHaveLength(rows.length);
    expect(all.body.data.filter((r: { replied: boolean }) => r.replied).map((r: { contact: { id: number } }) => r.contact.id)).toEqual([
      rows[2].contactId,
    ]);
    const bad = await w.api.get(`${B}/${id}/recipients?status=LOST`);
    expect(bad.status).toBe(422);
  });

  it("exports the recipients as CSV, formula-injection safe, streamed whole", async () => {
    const w = await world();
    const evil = await createContact(w.team.id, { name: '=HYPERLINK("http://x","ver")', labelIds: [w.labels.baja.id] });
    const plus = await createContact(w.team.id, { name: "+Pedro, hijo", labelIds: [w.labels.baja.id] });
    const created = await w.api.post(
      B,
      body({
        wa_number: w.number.number,
        template_name: w.template.name,
        header_param: { key: "1", value: "Hola" },
        audience: { labels_any: [w.labels.baja.id] },
      }),
    );
    const id = created.body.data.id;
    const res = await w.api.get(`${B}/${id}/recipients?format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = res.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("number,name,status,status_label,error_code,error_title,replied,update_id");
    expect(lines).toHaveLength(4); // header + Dani + the two above
    const byNumber = new Map(lines.slice(1).map((l) => [l.split(",")[0], l]));
    const rows = await broadcastMessages(w.team.id, id);
    const evilRow = rows.find((r) => r.contactId === evil.id)!;
    expect(byNumber.get(evil.customerNumber!)).toBe(
      `${evil.customerNumber},"'=HYPERLINK(""http://x"",""ver"")",QUEUED,En cola,,,false,${evilRow.updateId}`,
    );
    expect(byNumber.get(plus.customerNumber!)).toMatch(new RegExp(`^${plus.customerNumber},"'\\+Pedro, hijo",QUEUED,En cola,,,false,`));
    // Accept: text/csv works too.
    const viaAccept = await w.api.get(`${B}/${id}/recipients`, { accept: "text/csv" });
    expect(viaAccept.text).toBe(res.text);
    // The label in English beside the same code.
    const english = await w.api.get(`${B}/${id}/recipients?format=csv&lang=en`);
    expect(english.text).toContain(`,QUEUED,Queued,,,false,${evilRow.updateId}`);
    const badLang = await w.api.get(`${B}/${id}/recipients?format=csv&lang=fr`);
    expect(badLang.status).toBe(422);
    expect(badLang.body).toEqual({ message: "El campo lang debe ser es o en.", errors: { lang: ["El campo lang debe ser es o en."] } });
  });
});

describe("GET /api/v1/broadcasts", () => {
  it("lists the team's broadcasts newest first, paginated", async () => {
    const w = await world();
    const base = { wa_number: w.number.number, template_name: w.template.name, audience: { labels_any: [w.labels.promo.id] } };
    const first = await w.api.post(B, body({ ...base, name: "uno" }));
    const second = await w.api.post(B, body({ ...base, name: "dos" }));
    const page = await w.api.get(`${B}?per_page=1`);
    expect(page.status).toBe(200);
    expect(page.body.data.map((b: { id: number }) => b.id)).toEqual([second.body.data.id]);
    expect(page.body.pagination).toEqual({ total_items: 2, items_per_page: 1, current_page: 1, total_pages: 2 });
    const two = await w.api.get(`${B}?per_page=1&page=2`);
    expect(two.body.data[0].id).toBe(first.body.data.id);
    const db = await getDb();
    const n = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(messages)
      .where(and(eq(messages.teamId, w.team.id), eq(messages.sentGroup, "uno")));
    expect(n[0].n).toBe(2);
  });
});
