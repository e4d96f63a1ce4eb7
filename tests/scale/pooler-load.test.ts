import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createConversation, insertMessages, minuteSeries } from "../helpers/history-factories";
import { config } from "@/lib/config";

/**
 * The load that failed behind PgBouncer in transaction pooling before named prepared statements
 * were turned off there (49 of 55 answers were 500s): many concurrent conversation-list
 * requests, each with its token check and rate-limit insert, through the pooler. Runs only in the
 * scale pass (scripts/test-scale.sh), where DATABASE_URL is PgBouncer.
 */
let server: TestServer;
beforeAll(async () => {
  expect(config.databaseBehindPooler, "the scale pass sets DATABASE_DIRECT_URL (scripts/test-scale.sh)").toBe(true);
  server = await startServer();
});
afterAll(() => server?.close());

describe("behind a transaction pooler", () => {
  it("answers 64 concurrent conversation-list requests, three times over, all with 200", async () => {
    const conv = await createConversation();
    await insertMessages(conv, minuteSeries("2026-03-10T12:00:00Z", 3));
    const api = apiClient(server.url, conv.team.token);
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 64 }, () => api.get("/api/v1/conversations?per_page=20")));
      const failed = answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text.slice(0, 200)}`);
      expect(failed).toEqual([]);
      for (const a of answers) expect(Array.isArray(a.body.data)).toBe(true);
    }
  });
});
