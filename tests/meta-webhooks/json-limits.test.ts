import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNull, like } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { createTeam } from "../helpers/factories";
import { createCloudNumber, postWebhook, sign } from "../helpers/delivery-factories";
import { change, envelope, inboundMessage, statusUpdate, wamid } from "../fixtures/webhooks";
import { getDb } from "@/db/client";
import { messages, webhookDeadLetters } from "@/db/schema";
import { boundedJsonText, deeperThan, itemLimitProblem, MAX_ITEM_BYTES, MAX_ITEM_DEPTH } from "@/lib/http/json-limits";

/**
 * A signed webhook nested 4,000 levels deep answered 500 (RangeError) and its
 * whole batch was lost. Items too deep or too large are set aside with their reason and their
 * neighbours stored; a signed body that is not JSON is kept whole as a dead letter, with a 200.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const customer = () => `57300${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;

function nested(levels: number): unknown {
  let v: unknown = "fondo";
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { n: v };
  return v;
}

async function post(raw: string, secret: string) {
  const res = await fetch(`${server.url}/api/v1/webhooks/whatsapp`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": sign(secret, raw) },
    body: raw,
  });
  return { status: res.status, body: await res.json() };
}

async function stored(waNumberId: number) {
  const db = await getDb();
  return db.select().from(messages).where(eq(messages.waNumberId, waNumberId)).orderBy(messages.id);
}

async function deadLettersOf(waNumberId: number) {
  const db = await getDb();
  return db.select().from(webhookDeadLetters).where(eq(webhookDeadLetters.waNumberId, waNumberId)).orderBy(webhookDeadLetters.id);
}

describe("depth and size limits of webhook items", () => {
  it("sets aside a message 4,000 levels deep and one too large, and stores their neighbours (200)", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = customer();
    const deepId = wamid();
    const deep = { ...inboundMessage("text", { from, id: deepId }), extra: nested(4000) };
    const large = { ...inboundMessage("text", { from }), text: { body: "x".repeat(MAX_ITEM_BYTES) } };
    const good = inboundMessage("text", { from });
    const deepStatus = { ...statusUpdate("read", { id: wamid(), to: from }), extra: nested(100) };
    const res = await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { messages: [deep, large, good], statuses: [deepStatus] })),
      number.secrets.appSecret,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ messages: 1, statuses: 0, updates: 0, ignored: 0 });
    expect((await stored(number.id)).map((m) => m.providerMessageId)).toEqual([good.id]);
    const dead = await deadLettersOf(number.id);
    expect(dead.map((d) => [d.kind, d.teamId, d.reason])).toEqual([
      ["rejected", team.id, `message: JSON nested deeper than ${MAX_ITEM_DEPTH} levels`],
      ["rejected", team.id, expect.stringMatching(new RegExp(`^message: \\d+ characters of JSON, more than ${MAX_ITEM_BYTES}$`))],
      ["rejected", team.id, `status: JSON nested deeper than ${MAX_ITEM_DEPTH} levels`],
    ]);
    // What is kept: the item's fields, its deep part cut where the dead letter stops.
    expect(JSON.parse(dead[0].raw)).toMatchObject({ id: deepId, from });
    expect(dead[0].raw).toContain('"…"');
    expect(JSON.parse(dead[1].raw)).toEqual(large);
  });

  it("a message 200,000 levels deep (beyond JSON.stringify) is set aside too; the batch answers 200", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const good = inboundMessage("text", { from: customer() });
    const marker = '"__DEEP__"';
    const template = JSON.stringify(
      envelope(change(number.phoneNumberId, { messages: [{ ...inboundMessage("text", { from: customer() }), extra: "__DEEP__" }, good] })),
    );
    const raw = template.replace(marker, `${"[".repeat(200_000)}1${"]".repeat(200_000)}`);
    const res = await post(raw, number.secrets.appSecret!);
    expect(res.status).toBe(200);
    expect(res.body.data.messages).toBe(1);
    expect((await stored(number.id)).map((m) => m.providerMessageId)).toEqual([good.id]);
    const dead = await deadLettersOf(number.id);
    expect(dead.map((d) => d.reason)).toEqual([`message: JSON nested deeper than ${MAX_ITEM_DEPTH} levels`]);
  });

  it("a signed body that is not JSON is kept whole as a dead letter and answered 200 (no redelivery for days)", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const tag = `no-json-${wamid()}`;
    const raw = `{"object":"whatsapp_business_account","entry":[${tag}`;
    const res = await post(raw, number.secrets.appSecret!);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ messages: 0, statuses: 0, updates: 0, ignored: 0 });
    const db = await getDb();
    const dead = await db
      .select()
      .from(webhookDeadLetters)
      .where(and(isNull(webhookDeadLetters.teamId), like(webhookDeadLetters.raw, `%${tag}%`)));
    expect(dead).toHaveLength(1);
    expect(dead[0].reason).toBe("body: not JSON (SyntaxError)");
    expect(JSON.parse(dead[0].raw)).toBe(raw);
  });

  it("an unsigned body that is not JSON is still refused before anything is parsed or stored", async () => {
    const res = await fetch(`${server.url}/api/v1/webhooks/whatsapp`, {
      method: "POST",
      body: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(401);
  });
});

describe("json-limits helpers", () => {
  it("measures depth without recursion, and stops at the limit", () => {
    expect(deeperThan(nested(32), 32)).toBe(false);
    expect(deeperThan(nested(33), 32)).toBe(true);
    expect(deeperThan("x", 0)).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 500_000; i++) deep = [deep];
    expect(deeperThan(deep, 32)).toBe(true);
    expect(itemLimitProblem("message", deep)).toBe("message: JSON nested deeper than 32 levels");
    expect(itemLimitProblem("message", { a: [1, { b: "c" }] })).toBeNull();
  });

  it("writes any value as bounded JSON text, identical to JSON.stringify when within bounds", () => {
    const v = { a: [1, "\u0000", { "k\uD800": null }], b: true };
    expect(boundedJsonText(v)).toBe(JSON.stringify(v));
    expect(boundedJsonText(nested(3), 2)).toBe('{"n":["…"]}');
    expect(boundedJsonText("x".repeat(100), 64, 10)).toBe(`"${"x".repeat(9)}…`);
  });
});
