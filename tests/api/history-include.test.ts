import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createConversation, insertMessages } from "../helpers/history-factories";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const SPEC_KEYS = [
  "id",
  "customer_number",
  "customer_id",
  "sender",
  "direction",
  "type",
  "status",
  "created_at",
  "timestamp",
  "payload",
  "agent_id",
  "agent_name",
];

describe("history include= extension", () => {
  it("keeps the 2.4 record exact by default and adds update_id and error only when asked", async () => {
    const conv = await createConversation();
    const [failed] = await insertMessages(conv, [
      {
        sender: "SYSTEM",
        direction: "OUTBOUND",
        type: "text",
        status: "FAILED",
        error: { code: 131047, title: "Re-engagement message", details: "More than 24 hours" },
      },
    ]);
    const api = apiClient(server.url, conv.team.token);
    const base = `/api/v1/messages/whatsapp/history?customer_source=${conv.contact.customerNumber}&wa_number=${conv.number.number}&from_date=2000-01-01&to_date=2000-03-01`;
    const day = new Date().toISOString().slice(0, 10);
    const url = base.replace("from_date=2000-01-01&to_date=2000-03-01", `from_date=${day}`);

    for (const paging of ["&with_pagination=1", ""]) {
      const plain = await api.get(url + paging);
      expect(plain.status).toBe(200);
      expect(Object.keys(plain.body.data[0])).toEqual(SPEC_KEYS);

      const rich = await api.get(url + paging + "&include=update_id,error");
      expect(rich.status).toBe(200);
      expect(rich.body.data[0]).toMatchObject({
        id: failed.id,
        update_id: failed.updateId,
        error: { code: 131047, title: "Re-engagement message", details: "More than 24 hours" },
      });
    }

    const bad = await api.get(url + "&include=payload_raw");
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe("El campo include solo admite: update_id, error, routed_to, provider_message_id.");
  });

  it("adds where an inbound reply was routed with include=routed_to (null for messages never routed)", async () => {
    const conv = await createConversation();
    const [sent, reply] = await insertMessages(conv, [
      { sender: "SYSTEM", direction: "OUTBOUND", type: "template", status: "READED" },
      { routedTo: { kind: "campaign", id: 7, reason: "context:campaign" } },
    ]);
    const api = apiClient(server.url, conv.team.token);
    const day = new Date().toISOString().slice(0, 10);
    const url = `/api/v1/messages/whatsapp/history?customer_source=${conv.contact.customerNumber}&wa_number=${conv.number.number}&from_date=${day}&order=ASC`;

    const plain = await api.get(url);
    expect(Object.keys(plain.body.data[1])).toEqual(SPEC_KEYS);
    for (const paging of ["&with_pagination=1", ""]) {
      const rich = await api.get(url + paging + "&include=routed_to");
      expect(rich.status).toBe(200);
      expect(rich.body.data.map((r: { id: number; routed_to: unknown }) => [r.id, r.routed_to])).toEqual([
        [sent.id, null],
        [reply.id, { kind: "campaign", id: 7, reason: "context:campaign" }],
      ]);
    }
  });

  it("adds the provider's message id with include=provider_message_id, which reactions refer to", async () => {
    const conv = await createConversation();
    const [sent, reaction, queued] = await insertMessages(conv, [
      { sender: "SYSTEM", direction: "OUTBOUND", type: "text", status: "READED", providerMessageId: "wamid.INCLUDE_TARGET" },
      { type: "reaction", payload: { message_id: "wamid.INCLUDE_TARGET", emoji: "👍" }, providerMessageId: "wamid.INCLUDE_REACTION" },
      { sender: "SYSTEM", direction: "OUTBOUND", type: "text", status: "QUEUED", providerMessageId: null },
    ]);
    const api = apiClient(server.url, conv.team.token);
    const day = new Date().toISOString().slice(0, 10);
    const url = `/api/v1/messages/whatsapp/history?customer_source=${conv.contact.customerNumber}&wa_number=${conv.number.number}&from_date=${day}&order=ASC`;
    expect(Object.keys((await api.get(url)).body.data[0])).toEqual(SPEC_KEYS);
    for (const paging of ["&with_pagination=1", ""]) {
      const rich = await api.get(url + paging + "&include=provider_message_id");
      expect(rich.status).toBe(200);
      expect(rich.body.data.map((r: { id: number; provider_message_id: unknown }) => [r.id, r.provider_message_id])).toEqual([
        [sent.id, "wamid.INCLUDE_TARGET"],
        [reaction.id, "wamid.INCLUDE_REACTION"],
        [queued.id, null],
      ]);
    }
  });
});
