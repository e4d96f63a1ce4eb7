import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { contactLabels, contacts, labels } from "@/db/schema";
import { CONTACT_LABEL_CAP, LABEL_NOT_ASSIGNED } from "@/lib/contacts/schemas";
import { LABEL_NOT_FOUND } from "@/lib/labels/schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createLabel, createTeam } from "../helpers/factories";
import { countMessages, sendingTeam } from "../helpers/send-factories";
import { sendBody } from "../helpers/hardening-routes";

/** Meaningful on Postgres (real parallel transactions); on PGlite the same requests interleave. */
let server: TestServer;
const savedLimit = process.env.RATE_LIMIT_PER_MINUTE;
beforeAll(async () => {
  process.env.RATE_LIMIT_PER_MINUTE = "0";
  server = await startServer();
});
afterAll(async () => {
  if (savedLimit === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
  else process.env.RATE_LIMIT_PER_MINUTE = savedLimit;
  await server.close();
});

async function assignedIds(teamId: number, contactId: number): Promise<number[]> {
  const db = await getDb();
  const rows = await db
    .select({ labelId: contactLabels.labelId })
    .from(contactLabels)
    .where(and(eq(contactLabels.teamId, teamId), eq(contactLabels.contactId, contactId)));
  return rows.map((r) => r.labelId).sort((a, b) => a - b);
}

const ids = (data: { id: number }[]) => data.map((l) => l.id).sort((a, b) => a - b);

describe("concurrency", () => {
  it("holds the 5-label cap under 100 parallel adds", async () => {
    const team = await createTeam();
    const contact = await createContact(team.id);
    const pool = await Promise.all(Array.from({ length: 12 }, () => createLabel(team.id)));
    const api = apiClient(server.url, team.token);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => {
        const pick = [pool[i % 12].id, pool[(i * 7 + 3) % 12].id].filter((v, j, a) => a.indexOf(v) === j);
        return api.post(`/api/v1/contacts/${contact.id}/labels`, { label_ids: pick });
      }),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    for (const r of refused) expect(r.body).toEqual({ message: CONTACT_LABEL_CAP, errors: { label_ids: [CONTACT_LABEL_CAP] } });
    const final = await assignedIds(team.id, contact.id);
    expect(final.length).toBeLessThanOrEqual(5);
    expect(final.length).toBeGreaterThanOrEqual(4);
    expect(ok.length).toBeGreaterThan(0);
    // Adds only: what any successful answer showed is still there, and never more than 5.
    for (const r of ok) {
      expect(r.body.data.length).toBeLessThanOrEqual(5);
      for (const id of ids(r.body.data)) expect(final).toContain(id);
    }
  });

  it("100 parallel retries of one Idempotency-Key make exactly one message", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const body = sendBody(s);
    const results = await Promise.all(
      Array.from({ length: 100 }, () => api.post("/api/v1/message_templates/send", body, { "Idempotency-Key": "retry-storm" })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(new Set(results.map((r) => r.body.data.update_id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);
    expect(await countMessages(s.team.id)).toBe(1);
  });

  it("parallel adds, removes and a label deletion leave a consistent set", async () => {
    const team = await createTeam();
    const contact = await createContact(team.id);
    const [a, b, c] = [await createLabel(team.id), await createLabel(team.id), await createLabel(team.id)];
    const api = apiClient(server.url, team.token);
    const path = `/api/v1/contacts/${contact.id}/labels`;
    const ops = Array.from({ length: 60 }, (_, i) => {
      const labelIds = [[a.id], [b.id], [c.id], [a.id, c.id], [b.id, c.id]][i % 5];
      if (i === 30) return api.delete(`/api/v1/contacts/labels/${c.id}`);
      return i % 2 ? api.post(path, { label_ids: labelIds }) : api.put(path, { label_ids: labelIds });
    });
    const results = await Promise.all(ops);
    for (const r of results) {
      expect([200, 422], JSON.stringify(r.body)).toContain(r.status);
      if (r.status === 422) expect([LABEL_NOT_ASSIGNED, LABEL_NOT_FOUND]).toContain(r.body.message);
    }
    expect(results[30].status).toBe(200);

    const final = await assignedIds(team.id, contact.id);
    expect(final).not.toContain(c.id);
    const db = await getDb();
    expect(await db.select().from(labels).where(eq(labels.id, c.id))).toHaveLength(0);
    // The API's view of the contact agrees with the rows.
    const listed = await api.get(`/api/v1/contacts?search=${contact.customerNumber}`);
    const row = listed.body.data.find((x: { id: number }) => x.id === contact.id);
    expect(ids(row.labels)).toEqual(final);
    // And the set still obeys the rules: a further add of a deleted label is refused.
    const late = await api.post(path, { label_ids: [c.id] });
    expect(late.body).toEqual({ message: LABEL_NOT_FOUND, errors: { label_ids: [LABEL_NOT_FOUND] } });
  });
  it("parallel single sends, bulk sends and inbound messages for the same new numbers make one contact each", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const base = 573100000000 + Math.floor(Math.random() * 9_000_000) * 10;
    const numbers = Array.from({ length: 8 }, (_, i) => String(base + i));
    const single = (n: string) => api.post("/api/v1/message_templates/send", { ...sendBody(s), destination: n });
    const { header_param, body_params } = sendBody(s);
    const bulk = (ns: string[]) =>
      api.post("/api/v1/message_templates/send_bulk", {
        wa_number: s.number.number,
        template_name: s.template.name,
        recipients: ns.map((destination) => ({ destination, header_param, body_params })),
      });
    const inbound = (n: string) =>
      api.post("/api/v1/sandbox/inbound", {
        wa_number: s.number.number,
        from: n,
        type: "text",
        payload: { text: "hola" },
        profile_name: "Cliente",
      });
    const requests = Array.from({ length: 6 }, (_, round) => [
      ...numbers.map((n) => single(n)),
      bulk(round % 2 ? numbers : [...numbers].reverse()),
      ...numbers.map((n) => inbound(n)),
    ]).flat();
    const results = await Promise.all(requests);
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);

    const db = await getDb();
    const rows = await db.select().from(contacts).where(eq(contacts.teamId, s.team.id));
    expect(rows.map((r) => r.customerNumber).sort()).toEqual(numbers);
    // The inbound messages refreshed each contact (customer_id and profile name), whoever created it.
    for (const r of rows) expect(r).toMatchObject({ customerId: r.customerNumber, name: "Cliente" });
    expect(await countMessages(s.team.id)).toBe(6 * (numbers.length * 3));
  });
});
