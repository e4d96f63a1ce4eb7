import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { sendReply } from "@/lib/messages/reply-service";
import { sendReplyInput } from "@/lib/messages/reply-schemas";
import { sendBulk } from "@/lib/messages/send-bulk-service";
import { sendBulkRequest } from "@/lib/messages/send-bulk-schemas";
import { canonicalJson, KEY_REUSED, sweepExpiredKeys, type Idempotency } from "@/lib/idempotency/service";
import { sha256Hex } from "@/lib/crypto/hash";
import { ApiError } from "@/lib/http/errors";
import { MARKETING_OPTED_OUT } from "@/lib/contacts/opt-out";
import type { AuthContext } from "@/lib/auth/context";
import { getDb } from "@/db/client";
import { conversations, events } from "@/db/schema";
import { createAgent, createContact, createTeam, createNumber, createTemplate, uniqueNumber } from "../helpers/factories";
import { createConversation, insertMessages } from "../helpers/history-factories";
import { messageByUpdateId, tokenCtx } from "../helpers/send-factories";
import { countStatements } from "../helpers/statement-count";
import { waitFor } from "../helpers/wait";

/**
 * What a free-form reply (lib/messages/reply-service.ts) and a bulk template send
 * (lib/messages/send-bulk-service.ts) cost the database, counted in statements as
 * tests/api/send-round-trips.test.ts counts a single send: each is one round trip, after the
 * first requests of a team warmed the process's send catalog (its number, its template).
 */
const keyOf = (key: string, body: unknown = { key }): Idempotency => ({ key, requestHash: sha256Hex(canonicalJson(body)) });
const updateIdOf = (body: unknown) => (body as { data: { update_id: string } }).data.update_id;
const catalogReads = (statements: string[]) => statements.filter((s) => /from "(wa_numbers|templates)"/.test(s)).length;

/** A conversation whose customer wrote a minute ago (its window open), unassigned, and a warm catalog. */
async function replyWorld() {
  const c = await createConversation();
  const [inbound] = await insertMessages(c, [{ createdAt: new Date(Date.now() - 60_000), providerMessageId: `wamid.RT${uniqueNumber()}` }]);
  const input = (extra: Record<string, unknown> = {}) =>
    sendReplyInput.parse({
      wa_number: c.number.number,
      customer_source: c.contact.customerNumber,
      type: "text",
      payload: { text: "Hola" },
      ...extra,
    });
  const reply = (ctx: AuthContext, idempotency: Idempotency | null = null, extra: Record<string, unknown> = {}) =>
    countStatements(() => sendReply({ ctx, input: input(extra), idempotency }));
  // Warm with a token's replies, which assign nothing: the conversation stays unassigned.
  await waitFor(
    async () => catalogReads((await reply(tokenCtx(c.team.id))).statements),
    (n) => n === 0,
  );
  return { ...c, inbound, reply };
}

async function agentCtx(teamId: number): Promise<AuthContext> {
  const agent = await createAgent(teamId);
  return { teamId, actor: { kind: "agent", agentId: agent.id, agentName: agent.name, sessionId: 0 } };
}

const counted = (r: { statements: string[]; transactions: number }) => ({ statements: r.statements.length, transactions: r.transactions });

describe("round trips of a reply", () => {
  it("a token's text reply: one read, one write", async () => {
    const w = await replyWorld();
    const r = await w.reply(tokenCtx(w.team.id));
    expect(await messageByUpdateId(updateIdOf(r.result.body))).toMatchObject({ type: "text", contactId: w.contact.id });
    expect(counted(r), r.statements.join("\n")).toEqual({ statements: 2, transactions: 0 });
  });

  it("with a context message, still two", async () => {
    const w = await replyWorld();
    const r = await w.reply(tokenCtx(w.team.id), null, { context_update_id: w.inbound.updateId });
    expect(await messageByUpdateId(updateIdOf(r.result.body))).toMatchObject({ replyToMessageId: w.inbound.id });
    expect(counted(r), r.statements.join("\n")).toEqual({ statements: 2, transactions: 0 });
  });

  it("with an Idempotency-Key, its replay, and the key reused for another body", async () => {
    const w = await replyWorld();
    await sweepExpiredKeys(true);
    const first = await w.reply(tokenCtx(w.team.id), keyOf("rr-1"));
    expect(first.result.replayed).toBe(false);
    expect(counted(first), first.statements.join("\n")).toEqual({ statements: 2, transactions: 0 });
    const replay = await w.reply(tokenCtx(w.team.id), keyOf("rr-1"));
    expect(replay.result).toMatchObject({ replayed: true, body: first.result.body });
    expect(counted(replay)).toEqual({ statements: 2, transactions: 0 });
    const reused = await sendReply({
      ctx: tokenCtx(w.team.id),
      input: sendReplyInput.parse({
        wa_number: w.number.number,
        customer_source: w.contact.customerNumber,
        type: "text",
        payload: { text: "Otra" },
      }),
      idempotency: keyOf("rr-1", { other: true }),
    }).catch((err: unknown) => err);
    expect(reused).toBeInstanceOf(ApiError);
    expect((reused as ApiError).message).toBe(KEY_REUSED);
  });

  it("an agent's reply to an unassigned conversation assigns it in the same write", async () => {
    const w = await replyWorld();
    const ctx = await agentCtx(w.team.id);
    const r = await w.reply(ctx);
    expect(counted(r), r.statements.join("\n")).toEqual({ statements: 2, transactions: 0 });
    const db = await getDb();
    const [conv] = await db
      .select()
      .from(conversations)
      .where(and(eq(conversations.waNumberId, w.number.id), eq(conversations.contactId, w.contact.id)));
    expect(conv.assigneeAgentId).toBe(ctx.actor.kind === "agent" ? ctx.actor.agentId : -1);
    const announced = await db
      .select()
      .from(events)
      .where(and(eq(events.teamId, w.team.id), eq(events.type, "conversation.updated")));
    expect(announced.map((e) => e.data)).toEqual([{ id: conv.id, assignee_agent_id: conv.assigneeAgentId }]);

    // Assigned now: another agent's reply leaves it, in as many round trips.
    const other = await w.reply(await agentCtx(w.team.id));
    expect(counted(other)).toEqual({ statements: 2, transactions: 0 });
    const [after] = await db.select().from(conversations).where(eq(conversations.id, conv.id));
    expect(after.assigneeAgentId).toBe(conv.assigneeAgentId);
  });
});

async function bulkWorld(category: "UTILITY" | "MARKETING") {
  const team = await createTeam();
  const number = await createNumber(team.id);
  const template = await createTemplate(team.id, { category });
  const recipient = (destination: string) => ({
    destination,
    header_param: { key: "1", value: "Ana" },
    body_params: [
      { key: "1", value: "A-77" },
      { key: "2", value: "martes" },
    ],
  });
  const input = (destinations: string[]) =>
    sendBulkRequest.parse({ wa_number: number.number, template_name: template.name, recipients: destinations.map(recipient) });
  const send = (destinations: string[], idempotency: Idempotency | null = null) =>
    countStatements(() => sendBulk({ ctx: tokenCtx(team.id), input: input(destinations), idempotency }));
  await waitFor(
    async () => catalogReads((await send([uniqueNumber()])).statements),
    (n) => n === 0,
  );
  return { team, send };
}

type BulkBody = { data: { accepted: number; rejected: number; results: { destination: string; update_id?: string; errors?: unknown }[] } };

describe("round trips of a bulk send", () => {
  it("MARKETING to 3 recipients, one opted out: the opted-out read and one write; the refused one reported", async () => {
    const { team, send } = await bulkWorld("MARKETING");
    const out = await createContact(team.id, { marketingOptedOutAt: new Date(), marketingOptOutReason: "keyword" });
    const known = await createContact(team.id);
    const destinations = [uniqueNumber(), out.customerNumber!, known.customerNumber!];
    const r = await send(destinations);
    expect(counted(r), r.statements.join("\n")).toEqual({ statements: 2, transactions: 0 });
    const body = r.result.body as BulkBody;
    expect(body.data).toMatchObject({ accepted: 2, rejected: 1 });
    expect(body.data.results[1]).toEqual({ index: 1, destination: out.customerNumber, errors: { destination: [MARKETING_OPTED_OUT] } });
    expect(await messageByUpdateId(body.data.results[0].update_id!)).toMatchObject({ status: "QUEUED", customerNumber: destinations[0] });
    expect(await messageByUpdateId(body.data.results[2].update_id!)).toMatchObject({ contactId: known.id });
  });

  it("UTILITY with an Idempotency-Key: one statement, and one for its replay", async () => {
    const { send } = await bulkWorld("UTILITY");
    await sweepExpiredKeys(true);
    const destinations = [uniqueNumber(), uniqueNumber(), uniqueNumber()];
    const first = await send(destinations, keyOf("rb-1"));
    expect(counted(first), first.statements.join("\n")).toEqual({ statements: 1, transactions: 0 });
    const replay = await send(destinations, keyOf("rb-1"));
    expect(replay.result).toMatchObject({ replayed: true, body: first.result.body });
    expect(counted(replay)).toEqual({ statements: 1, transactions: 0 });
  });
});
