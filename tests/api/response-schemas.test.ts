import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createAgent, createBot, createCampaign, createLabel, createTemplate } from "../helpers/factories";
import { createConversation, insertMessages } from "../helpers/history-factories";
import { agentResponseSchema } from "@/lib/auth/session-schemas";
import { listWaNumbersResponse } from "@/lib/numbers/schemas";
import { listTemplatesResponse } from "@/lib/templates/schemas";
import { listLabelsResponse } from "@/lib/labels/schemas";
import { listContactsResponse } from "@/lib/contacts/schemas";
import { listBotsResponse } from "@/lib/bots/schemas";
import { listCampaignsResponse } from "@/lib/campaigns/schemas";
import { historyResponseSchema } from "@/lib/messages/history-schemas";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/**
 * The dashboard's types are `z.infer` of these response schemas (lib/api-client/types.ts), and the
 * OpenAPI document is built from them: each answer the dashboard reads must be exactly what its
 * schema says — parsing strips undocumented fields, so a field the schema lacks shows as a difference.
 */
function expectExactly(schema: z.ZodType, body: unknown) {
  const parsed = schema.safeParse(body);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(parsed.data).toEqual(body);
}

describe("response schemas describe the answers exactly", () => {
  it("catalogues, labels, contacts, the agent and a history page with every include", async () => {
    const conv = await createConversation();
    const { team, number } = conv;
    await createTemplate(team.id);
    await createLabel(team.id);
    await createBot(team.id, { isDefault: true });
    await createCampaign(team.id);
    await insertMessages(conv, [
      {
        sender: "SYSTEM",
        direction: "OUTBOUND",
        type: "text",
        status: "FAILED",
        error: { code: 131047, title: "Re-engagement message", details: "More than 24 hours" },
      },
      { routedTo: { kind: "bot", id: 1, reason: "none:default_bot" } },
    ]);
    const api = apiClient(server.url, team.token);
    const day = new Date().toISOString().slice(0, 10);
    const checks: [z.ZodType, string][] = [
      [listWaNumbersResponse, "/api/v1/wa_numbers?per_page=100"],
      [listTemplatesResponse, `/api/v1/message_templates?wa_number=${number.number}&per_page=100`],
      [listLabelsResponse, "/api/v1/contacts/labels?per_page=20"],
      [listContactsResponse, "/api/v1/contacts?per_page=20"],
      [listBotsResponse, "/api/v1/bots?per_page=100"],
      [listCampaignsResponse, "/api/v1/campaigns?per_page=100"],
      [
        historyResponseSchema,
        `/api/v1/messages/whatsapp/history?customer_source=${conv.contact.customerNumber}&wa_number=${number.number}&from_date=${day}&order=DESC&with_pagination=1&per_page=50&include=update_id,error,routed_to`,
      ],
    ];
    for (const [schema, path] of checks) {
      const res = await api.get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.data.length, path).toBeGreaterThan(0);
      expectExactly(schema, res.body);
    }

    const agent = await createAgent(team.id, "clave-segura-1");
    const login = await apiClient(server.url).post("/api/v1/auth/login", { email: agent.email, password: "clave-segura-1" });
    expectExactly(agentResponseSchema, login.body);
  });
});
