import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { createTeam } from "../helpers/factories";
import { createCloudNumber, postWebhook } from "../helpers/delivery-factories";
import { change, envelope, inboundMessage } from "../fixtures/webhooks";
import { getDb } from "@/db/client";
import { contacts, messages } from "@/db/schema";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("inbound contacts (lib/contacts/repo.ts upsertContacts)", () => {
  it("a customer known only by user_id gets one contact, found again by its customer_id, its name refreshed", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const userId = `US.${Date.now()}${process.pid}`;
    const fromUser = (name: string) => {
      const m = inboundMessage("text", { from: "0" });
      delete m.from;
      return envelope(
        change(number.phoneNumberId, { contacts: [{ wa_id: "", name, user_id: userId }], messages: [{ ...m, from_user_id: userId }] }),
      );
    };
    expect((await postWebhook(server.url, fromUser("Ana"), number.secrets.appSecret)).status).toBe(200);
    expect((await postWebhook(server.url, fromUser("Ana María"), number.secrets.appSecret)).status).toBe(200);

    const db = await getDb();
    const rows = await db.select().from(contacts).where(eq(contacts.teamId, team.id));
    expect(rows.map((r) => ({ customerNumber: r.customerNumber, customerId: r.customerId, name: r.name }))).toEqual([
      { customerNumber: null, customerId: userId, name: "Ana María" },
    ]);
    const stored = await db.select().from(messages).where(eq(messages.teamId, team.id));
    expect(stored.map((m) => m.contactId)).toEqual([rows[0].id, rows[0].id]);
  });
});
