import { describe, expect, it } from "vitest";
import { sendTemplate } from "@/lib/messages/send-service";
import { sendTemplateInput } from "@/lib/messages/send-schemas";
import { canonicalJson, sweepExpiredKeys, type Idempotency } from "@/lib/idempotency/service";
import { sha256Hex } from "@/lib/crypto/hash";
import { createContact, createNumber, createTeam, createTemplate, uniqueNumber } from "../helpers/factories";
import { idempotencyRow, messageByUpdateId, tokenCtx } from "../helpers/send-factories";
import { countStatements } from "../helpers/statement-count";
import { ApiError } from "@/lib/http/errors";
import { MARKETING_OPTED_OUT } from "@/lib/contacts/opt-out";
import { and, count, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { messages, templates } from "@/db/schema";
import { waitFor } from "../helpers/wait";

/**
 * What one template send (spec 4.1, lib/messages/send-service.ts) costs the database, counted in
 * statements through the process's drizzle handle (tests/helpers/statement-count.ts): each is one
 * round trip. The first sends of a team warm what the process keeps; the counted one is the next,
 * to a recipient the team has never written to (a new contact, the common case of a send).
 */
async function world(category: "UTILITY" | "MARKETING") {
  const team = await createTeam();
  const number = await createNumber(team.id);
  const template = await createTemplate(team.id, { category });
  const input = (destination: string) =>
    sendTemplateInput.parse({
      wa_number: number.number,
      destination,
      template_name: template.name,
      header_param: { key: "1", value: "Ana" },
      body_params: [
        { key: "1", value: "A-77" },
        { key: "2", value: "martes" },
      ],
    });
  const send = (destination: string, idempotency: Idempotency | null = null) =>
    countStatements(() => sendTemplate({ ctx: tokenCtx(team.id), input: input(destination), idempotency }));
  // Warm: once the process's LISTEN is up (lib/messages/send-catalog.ts), its number and template are kept.
  await waitFor(
    async () => (await send(uniqueNumber())).statements.filter((s) => /from "(wa_numbers|templates)"/.test(s)).length,
    (n) => n === 0,
  );
  return { team, send, input };
}

async function countMessagesTo(teamId: number, contactId: number) {
  const db = await getDb();
  const [{ n }] = await db
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.teamId, teamId), eq(messages.contactId, contactId)));
  return n;
}

const keyOf = (key: string): Idempotency => ({ key, requestHash: sha256Hex(canonicalJson({ key })) });

describe("round trips of a template send", () => {
  it("UTILITY without Idempotency-Key", async () => {
    const { send } = await world("UTILITY");
    const { result, statements, transactions } = await send(uniqueNumber());
    expect(await messageByUpdateId((result.body as { data: { update_id: string } }).data.update_id)).toBeDefined();
    expect({ statements: statements.length, transactions }, statements.join("\n")).toEqual({ statements: 1, transactions: 0 });
  });

  it("MARKETING without Idempotency-Key", async () => {
    const { send } = await world("MARKETING");
    const { statements, transactions } = await send(uniqueNumber());
    expect({ statements: statements.length, transactions }, statements.join("\n")).toEqual({ statements: 1, transactions: 0 });
  });

  it("MARKETING to a contact opted out of marketing: the 422 in the same one statement, nothing written", async () => {
    const { team, input } = await world("MARKETING");
    const out = await createContact(team.id, { marketingOptedOutAt: new Date(), marketingOptOutReason: "keyword" });
    const { result: refused, statements } = await countStatements(() =>
      sendTemplate({ ctx: tokenCtx(team.id), input: input(out.customerNumber!), idempotency: null }).catch((err: unknown) => err),
    );
    expect(statements).toHaveLength(1);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toBe(MARKETING_OPTED_OUT);
    expect(await countMessagesTo(team.id, out.id)).toBe(0);
  });

  it("UTILITY with an Idempotency-Key, and its replay", async () => {
    const { send } = await world("UTILITY");
    await sweepExpiredKeys(true);
    const destination = uniqueNumber();
    const first = await send(destination, keyOf("rt-1"));
    expect(first.result.replayed).toBe(false);
    expect({ statements: first.statements.length, transactions: first.transactions }, first.statements.join("\n")).toEqual({
      statements: 1,
      transactions: 0,
    });
    const replay = await send(destination, keyOf("rt-1"));
    expect(replay.result).toMatchObject({ replayed: true, body: first.result.body });
    expect({ statements: replay.statements.length, transactions: replay.transactions }).toEqual({ statements: 1, transactions: 0 });
  });

  it("a keyed retry after the template was rejected still gets the first answer; a refused keyed send stores no key", async () => {
    const { team, send, input } = await world("MARKETING");
    const destination = uniqueNumber();
    const first = await send(destination, keyOf("rt-2"));
    const db = await getDb();
    await db.update(templates).set({ status: "REJECTED" }).where(eq(templates.teamId, team.id));
    const plain = () =>
      sendTemplate({ ctx: tokenCtx(team.id), input: input(uniqueNumber()), idempotency: null }).then(
        () => null,
        (err: unknown) => (err as Error).message,
      );
    await waitFor(plain, (m) => m !== null);
    const replay = await send(destination, keyOf("rt-2"));
    expect(replay.result).toMatchObject({ replayed: true, body: first.result.body });

    await db.update(templates).set({ status: "APPROVED" }).where(eq(templates.teamId, team.id));
    await waitFor(plain, (m) => m === null);
    const out = await createContact(team.id, { marketingOptedOutAt: new Date(), marketingOptOutReason: "keyword" });
    const refused = await countStatements(() =>
      sendTemplate({ ctx: tokenCtx(team.id), input: input(out.customerNumber!), idempotency: keyOf("rt-3") }).catch((err: unknown) => err),
    );
    expect((refused.result as ApiError).message).toBe(MARKETING_OPTED_OUT);
    expect(refused.statements).toHaveLength(1);
    expect(await idempotencyRow(team.id, "rt-3")).toBeUndefined();
  });
});
