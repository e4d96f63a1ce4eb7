import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createTeam } from "../helpers/factories";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("GET /api/v1/contacts search", () => {
  it("matches names whatever the accents and case typed", async () => {
    const team = await createTeam();
    const maria = await createContact(team.id, { name: "María López" });
    await createContact(team.id, { name: "Mario Lanza" });
    const api = apiClient(server.url, team.token);
    for (const q of ["maria", "MARÍA", "lopez", "López", "ía ló"]) {
      const res = await api.get(`/api/v1/contacts?search=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(
        res.body.data.map((c: any) => c.id),
        q,
      ).toEqual([maria.id]);
    }
  });
});
