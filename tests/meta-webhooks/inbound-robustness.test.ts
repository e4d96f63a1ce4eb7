import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { createTeam } from "../helpers/factories";
import { createCloudNumber, postWebhook, sign } from "../helpers/delivery-factories";
import { change, envelope, inboundMessage, statusUpdate, wamid } from "../fixtures/webhooks";
import { getDb } from "@/db/client";
import { contacts, messages, webhookDeadLetters } from "@/db/schema";
import { registry } from "@/lib/admin/registry";
import { isTransientDbError } from "@/lib/meta-webhooks/dead-letters";

/**
 * A signed batch is stored item by
 * item. What Postgres cannot hold is cleaned, absurd timestamps are clamped, an item that fails its
 * schema or its own transaction is kept in webhook_dead_letters, and the rest of the batch is stored
 * with a 200 (a 500 would make Meta redeliver the whole batch for days).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const customer = () => `57300${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;

async function inboundOf(waNumberId: number) {
  const db = await getDb();
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.waNumberId, waNumberId), eq(messages.direction, "INBOUND")))
    .orderBy(messages.id);
}

async function deadLettersOf(waNumberId: number) {
  const db = await getDb();
  return db.select().from(webhookDeadLetters).where(eq(webhookDeadLetters.waNumberId, waNumberId)).orderBy(webhookDeadLetters.id);
}

describe("signed webhooks never answer 500 for one bad item", () => {
  it("stores text and profile names with U+0000 and lone surrogates, cleaned, with the rest of the batch", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const [a, b] = [customer(), customer()];
    const nul = { ...inboundMessage("text", { from: a }), text: { body: "hola\u0000mundo" } };
    const lone = { ...inboundMessage("text", { from: b }), text: { body: "roto \uD800 y \uDC00 fin" } };
    const fine = inboundMessage("button", { from: a });
    const body = envelope(
      change(number.phoneNumberId, {
        contacts: [
          { wa_id: a, name: "Ana\u0000 Pérez" },
          { wa_id: b, name: "Beto \uDBFF" },
        ],
        messages: [nul, lone, fine],
      }),
    );
    const res = await postWebhook(server.url, body, number.secrets.appSecret);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ messages: 3, statuses: 0, updates: 0, ignored: 0 });
    const stored = await inboundOf(number.id);
    expect(stored.map((m) => m.payload)).toEqual([
      { text: "holamundo" },
      { text: "roto \uFFFD y \uFFFD fin" },
      { text: "Gracias", payload: "THANKS" },
    ]);
    const db = await getDb();
    const names = await db.select({ n: contacts.customerNumber, name: contacts.name }).from(contacts).where(eq(contacts.teamId, team.id));
    expect(Object.fromEntries(names.map((c) => [c.n, c.name]))).toEqual({ [a]: "Ana Pérez", [b]: "Beto \uFFFD" });
    expect(await deadLettersOf(number.id)).toEqual([]);
  });

  it("clamps an absurd timestamp to the receipt time and keeps the original as a 'clamped' dead letter", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = customer();
    const far = { ...inboundMessage("text", { from }), timestamp: "99999999999999999999" };
    const early = { ...inboundMessage("text", { from }), timestamp: "-5" };
    const ok = inboundMessage("text", { from, timestamp: 1_700_000_000 });
    const before = Date.now();
    const res = await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { messages: [far, early, ok] })),
      number.secrets.appSecret,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.messages).toBe(3);
    const stored = await inboundOf(number.id);
    expect(stored).toHaveLength(3);
    for (const m of stored.slice(0, 2)) {
      expect(m.createdAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
      expect(m.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    }
    expect(stored[2].createdAt.getTime()).toBe(1_700_000_000_000);
    const dead = await deadLettersOf(number.id);
    expect(dead.map((d) => [d.kind, d.teamId])).toEqual([
      ["clamped", team.id],
      ["clamped", team.id],
    ]);
    expect(dead[0].reason).toContain("99999999999999999999");
    expect(JSON.parse(dead[0].raw)).toEqual(far);
    expect(JSON.parse(dead[1].raw)).toEqual(early);
  });

  it("sets aside a message or status that fails its schema, with its reason and raw JSON, and stores its neighbours", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = customer();
    const noId = { ...inboundMessage("text", { from }), id: "" };
    const objectBody = { ...inboundMessage("text", { from }), text: { body: { nested: "\u0000x" } } };
    const good = inboundMessage("text", { from });
    const badStatus = { ...statusUpdate("read", { id: wamid(), to: from }), status: 7 };
    const res = await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { messages: [noId, objectBody, good], statuses: [badStatus] })),
      number.secrets.appSecret,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ messages: 1, statuses: 0, updates: 0, ignored: 0 });
    expect((await inboundOf(number.id)).map((m) => m.providerMessageId)).toEqual([good.id]);
    const dead = await deadLettersOf(number.id);
    expect(dead.map((d) => ({ kind: d.kind, team: d.teamId, reason: d.reason.split(":")[0] }))).toEqual([
      { kind: "rejected", team: team.id, reason: "message" },
      { kind: "rejected", team: team.id, reason: "message" },
      { kind: "rejected", team: team.id, reason: "status" },
    ]);
    expect(dead[0].reason).toContain("id");
    expect(dead[1].reason).toContain("text.body");
    // Raw as received: the NUL is kept, as a JSON escape (text columns cannot hold it either).
    expect(dead[1].raw).toContain("\\u0000x");
    expect(JSON.parse(dead[1].raw)).toEqual(objectBody);
    expect(JSON.parse(dead[2].raw)).toEqual(badStatus);
  });

  it("an item that fails in the database is rolled back alone and dead-lettered; the batch answers 200", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = customer();
    // Too long for the btree index on (wa_number_id, provider_message_id): its INSERT fails in Postgres.
    const hugeId = `wamid.${randomBytes(12_000).toString("base64")}`;
    const doomed = inboundMessage("text", { from, id: hugeId });
    const before = inboundMessage("text", { from });
    const after = inboundMessage("button", { from });
    const res = await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { messages: [before, doomed, after] })),
      number.secrets.appSecret,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.messages).toBe(2);
    expect((await inboundOf(number.id)).map((m) => m.providerMessageId)).toEqual([before.id, after.id]);
    const [dead] = await deadLettersOf(number.id);
    expect(dead.kind).toBe("rejected");
    expect(dead.reason).toMatch(/^message: database error/);
    expect(dead.reason).not.toContain(hugeId);
    expect(JSON.parse(dead.raw).id).toBe(hugeId);
    // Meta redelivers nothing new: the stored two are skipped, the doomed one is set aside again.
    const again = await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { messages: [before, doomed, after] })),
      number.secrets.appSecret,
    );
    expect(again.status).toBe(200);
    expect(await inboundOf(number.id)).toHaveLength(2);
  });

  it("tells the item's fault (dead letter) from the database's (500, Meta redelivers)", () => {
    const wrapped = (code: string) => Object.assign(new Error("Failed query: …"), { cause: Object.assign(new Error("pg"), { code }) });
    for (const code of ["08006", "40001", "40P01", "53200", "57P01", "CONNECTION_CLOSED", "ECONNRESET"])
      expect(isTransientDbError(wrapped(code)), code).toBe(true);
    for (const code of ["54000", "22P05", "23505", "P0001", "42703"]) expect(isTransientDbError(wrapped(code)), code).toBe(false);
    expect(isTransientDbError(new TypeError("x"))).toBe(false);
  });

  it("an entry or change that fails its schema is set aside without a number; other entries are stored", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const good = inboundMessage("text", { from: customer() });
    const brokenEntry = { id: "WABA1", changes: "nope" };
    const noMetadata = {
      id: "WABA1",
      changes: [{ field: "messages", value: { messaging_product: "whatsapp", messages: [inboundMessage("text", { from: customer() })] } }],
    };
    const otherField = { id: "WABA1", changes: [{ field: "message_template_status_update", value: { event: "APPROVED" } }] };
    const body = {
      object: "whatsapp_business_account",
      entry: [brokenEntry, noMetadata, otherField, change(number.phoneNumberId, { messages: [good] })],
    };
    const res = await postWebhook(server.url, body, number.secrets.appSecret);
    expect(res.status).toBe(200);
    // The template change is for a business account that is none of ours: ignored.
    expect(res.body.data).toEqual({ messages: 1, statuses: 0, updates: 0, ignored: 1 });
    const db = await getDb();
    const raws = new Set([JSON.stringify(brokenEntry), JSON.stringify(noMetadata.changes[0])]);
    const dead = (await db.select().from(webhookDeadLetters)).filter((d) => raws.has(d.raw));
    // One dead letter each, in no particular order (a table read without ORDER BY).
    const kinds = dead
      .map((d) => [d.teamId, d.waNumberId, d.reason.split(":")[0]])
      .sort((a, b) => String(a[2]).localeCompare(String(b[2])));
    expect(kinds).toEqual([
      [null, null, "change"],
      [null, null, "entry"],
    ]);
  });

  it("unknown message types and fields pass through the schemas untouched", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = customer();
    const future = {
      from,
      id: wamid(),
      timestamp: String(Math.floor(Date.now() / 1000)),
      type: "hologram",
      hologram: { depth: 3 },
      errors: [{ code: 131051, title: "Message type unknown" }],
    };
    const extra = { ...inboundMessage("text", { from }), brand_new_field: { x: 1 }, text: { body: "hola", also_new: true } };
    const res = await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { messages: [future, extra] })),
      number.secrets.appSecret,
    );
    expect(res.status).toBe(200);
    const [h, t] = await inboundOf(number.id);
    expect(h).toMatchObject({ type: "unknown", payload: { original_type: "hologram", code: 131051, title: "Message type unknown" } });
    expect(t.payload).toEqual({ text: "hola" });
    expect(await deadLettersOf(number.id)).toEqual([]);
  });
});

describe("admin dead-letters:list", () => {
  it("shows a team's dead letters, newest first, with reason and raw JSON", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const bad = { ...inboundMessage("text", { from: customer() }), id: { not: "an id" } };
    await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { messages: [bad, { ...bad, type: 5 }] })),
      number.secrets.appSecret,
    );
    const out = (await registry["dead-letters:list"].run({ team: String(team.id) })) as { dead_letters: Record<string, unknown>[] };
    expect(out.dead_letters).toHaveLength(2);
    expect(out.dead_letters[0]).toMatchObject({ team_id: team.id, wa_number_id: number.id, kind: "rejected", source: "whatsapp" });
    expect((out.dead_letters[0].id as number) > (out.dead_letters[1].id as number)).toBe(true);
    expect(JSON.parse(out.dead_letters[1].raw as string)).toEqual(bad);
    const one = (await registry["dead-letters:list"].run({ team: String(team.id), limit: "1" })) as { dead_letters: unknown[] };
    expect(one.dead_letters).toHaveLength(1);
  });
});

describe("signature header parsing", () => {
  it("accepts exactly sha256= and 64 hex digits: a valid signature with anything appended is refused", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const body = envelope(change(number.phoneNumberId, { messages: [inboundMessage("text", { from: customer() })] }));
    const valid = sign(number.secrets.appSecret, JSON.stringify(body));
    for (const header of [
      `${valid},junk`,
      `${valid}00`,
      `${valid}zz`,
      `${valid};v=2`,
      valid.slice(0, -1),
      valid.replace("sha256=", "SHA256="),
    ]) {
      const res = await postWebhook(server.url, body, null, header);
      expect(res.status, header).toBe(401);
    }
    expect(await inboundOf(number.id)).toHaveLength(0);
    expect((await postWebhook(server.url, body, null, valid.toUpperCase().replace("SHA256=", "sha256="))).status).toBe(200);
  });
});
