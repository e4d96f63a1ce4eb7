import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { messageStatusHistory, messages, parkedStatuses } from "@/db/schema";
import { applyStatusBatch } from "@/lib/delivery/status";
import { receiveStatusesGrouped } from "@/lib/delivery/status-batch";
import type { ChannelNumber, StatusUpdate } from "@/lib/channels/types";
import { cloudNumberByPhoneNumberId } from "@/lib/meta-webhooks/secrets";
import { startServer, type TestServer } from "../helpers/server";
import { createContact, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createQueuedMessage, postWebhook } from "../helpers/delivery-factories";
import { change, envelope, statusUpdate, wamid } from "../fixtures/webhooks";

/**
 * Status webhooks are applied in groups (lib/delivery/status-batch.ts): concurrent requests share
 * one transaction and one statement. What each request is answered, what each message ends at and
 * its audit trail must be what one transaction per status gave.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function sentMessages(n: number) {
  const team = await createTeam();
  const number = await createCloudNumber(team.id);
  const template = await createTemplate(team.id);
  const db = await getDb();
  const rows = [];
  for (let i = 0; i < n; i++) {
    const contact = await createContact(team.id);
    const msg = await createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template });
    const [sent] = await db
      .update(messages)
      .set({ status: "SENDED", providerMessageId: wamid(), nextAttemptAt: null })
      .where(eq(messages.id, msg.id))
      .returning();
    rows.push({ ...sent, to: contact.customerNumber! });
  }
  return { team, number, rows };
}

async function trail(ids: number[]) {
  const db = await getDb();
  const events = await db
    .select()
    .from(messageStatusHistory)
    .where(inArray(messageStatusHistory.messageId, ids))
    .orderBy(messageStatusHistory.id);
  const byMessage = new Map<number, [string, number][]>();
  for (const e of events) byMessage.set(e.messageId, [...(byMessage.get(e.messageId) ?? []), [e.status, e.applied]]);
  return ids.map((id) => byMessage.get(id) ?? []);
}

describe("status group commit", () => {
  it("40 concurrent webhooks, each with sent, delivered and read of its message, all apply in their order", async () => {
    const { number, rows } = await sentMessages(40);
    const answers = await Promise.all(
      rows.map((m) =>
        postWebhook(
          server.url,
          envelope(
            change(number.phoneNumberId, {
              statuses: [
                statusUpdate("sent", { id: m.providerMessageId!, to: m.to }),
                statusUpdate("delivered", { id: m.providerMessageId!, to: m.to }),
                statusUpdate("read", { id: m.providerMessageId!, to: m.to }),
              ],
            }),
          ),
          number.secrets.appSecret,
        ),
      ),
    );
    expect(answers.map((a) => [a.status, a.body.data.statuses])).toEqual(rows.map(() => [200, 3]));
    const db = await getDb();
    const after = await db
      .select({ id: messages.id, status: messages.status })
      .from(messages)
      .where(
        inArray(
          messages.id,
          rows.map((r) => r.id),
        ),
      );
    expect(after.every((r) => r.status === "READED")).toBe(true);
    expect(await trail(rows.map((r) => r.id))).toEqual(
      rows.map(() => [
        ["SENT", 1],
        ["DELIVERED", 1],
        ["READED", 1],
      ]),
    );
  });

  it("one batch: a repeated status of a message waits for the next statement, an unknown one is parked, a backwards one recorded", async () => {
    const { team, number, rows } = await sentMessages(3);
    const channel = (await cloudNumberByPhoneNumberId(number.phoneNumberId)) as ChannelNumber;
    const [a, b, c] = rows;
    const stray = wamid();
    const u = (status: string, id: string): StatusUpdate => ({ status, providerMessageId: id, timestamp: 1764000000, raw: { id, status } });
    const outcomes = await applyStatusBatch([
      { number: channel, update: u("delivered", a.providerMessageId!) },
      { number: channel, update: u("read", a.providerMessageId!) },
      { number: channel, update: u("read", b.providerMessageId!) },
      { number: channel, update: u("sent", b.providerMessageId!) },
      { number: channel, update: u("delivered", stray) },
      { number: channel, update: u("sent", c.providerMessageId!) },
    ]);
    expect(outcomes).toEqual(["applied", "applied", "applied", "ignored", "unknown", "applied"]);
    expect(await trail([a.id, b.id, c.id])).toEqual([
      [
        ["DELIVERED", 1],
        ["READED", 1],
      ],
      [
        ["READED", 1],
        ["SENT", 0],
      ],
      [["SENT", 1]],
    ]);
    const db = await getDb();
    const parked = await db.select().from(parkedStatuses).where(eq(parkedStatuses.teamId, team.id));
    expect(parked.map((p) => [p.providerMessageId, p.reason])).toEqual([[stray, "unknown"]]);
  });

  it("a batch that fails is taken again status by status: the neighbours of a bad status are stored", async () => {
    const { number, rows } = await sentMessages(2);
    const channel = (await cloudNumberByPhoneNumberId(number.phoneNumberId)) as ChannelNumber;
    const good: StatusUpdate = {
      status: "delivered",
      providerMessageId: rows[0].providerMessageId!,
      timestamp: 1764000000,
      raw: { ok: true },
    };
    // A raw payload Postgres cannot take (a lone NUL in jsonb text) fails the statement that holds it.
    const bad: StatusUpdate = {
      status: "read",
      providerMessageId: rows[1].providerMessageId!,
      timestamp: 1764000000,
      raw: { text: "\u0000" },
    };
    const results = await receiveStatusesGrouped([
      { number: channel, update: good },
      { number: channel, update: bad },
    ]);
    expect(results[0]).toEqual({ status: "fulfilled", value: "applied" });
    expect(results[1].status).toBe("rejected");
    expect(await trail([rows[0].id, rows[1].id])).toEqual([[["DELIVERED", 1]], []]);
  });
});
