import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("GET /api/v1/openapi.json", () => {
  it("documents every /api/v1 route from the zod schemas, without a token", async () => {
    const res = await apiClient(server.url).get("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const paths = Object.keys(res.body.paths);
    for (const p of [
      "/api/v1/message_templates/send",
      "/api/v1/contacts/labels",
      "/api/v1/contacts/{contactId}/labels",
      "/api/v1/messages/{channel}/history",
      "/api/v1/media-upload",
      "/api/v1/contacts",
    ]) {
      expect(paths).toContain(p);
    }
    // The send request is the same schema the handler parses: its fields and enums show through.
    const send = res.body.components.schemas.SendTemplateRequest;
    expect(Object.keys(send.properties)).toEqual(
      expect.arrayContaining([
        "wa_number",
        "destination",
        "template_name",
        "header_param",
        "body_params",
        "media_path",
        "response_handler",
        "campaign_id",
        "bot_id",
        "sent_group",
      ]),
    );
    expect(send.required).toEqual(expect.arrayContaining(["wa_number", "destination", "template_name"]));
  });

  it("lists every route file of the app", async () => {
    const res = await apiClient(server.url).get("/api/v1/openapi.json");
    const documented = new Set(Object.keys(res.body.paths).map((p) => p.replace(/\{[^}]+\}/g, "{}")));
    const files = Object.keys(import.meta.glob("/app/api/v1/**/route.ts"))
      .map((f) =>
        f
          .replace(/^\/app/, "")
          .replace(/\/route\.ts$/, "")
          .replace(/\[(\.\.\.)?\w+\]/g, "{}"),
      )
      // The catch-all and /api/v1 itself answer the JSON 404 of unknown paths: not operations.
      .filter((p) => p !== "/api/v1/openapi.json" && p !== "/api/v1/{}" && p !== "/api/v1");
    for (const f of files) expect(documented, f).toContain(f);
  });
});
