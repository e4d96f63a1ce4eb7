import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createNumber, createTeam } from "../helpers/factories";
import { createToken, revokeTokenById } from "@/lib/auth/tokens";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("GET /api/v1/wa_numbers", () => {
  it("lists only the caller's numbers, paginated", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const mine = await createNumber(team.id);
    await createNumber(other.id);
    const res = await apiClient(server.url, team.token).get("/api/v1/wa_numbers");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([mine]);
    expect(res.body.pagination).toEqual({ total_items: 1, items_per_page: 50, current_page: 1, total_pages: 1 });
  });

  it("answers 401 with the ruled body without, with a wrong, or with a revoked token", async () => {
    const team = await createTeam();
    const noToken = await apiClient(server.url).get("/api/v1/wa_numbers");
    expect(noToken.status).toBe(401);
    expect(noToken.body).toEqual({ message: "Unauthenticated." });
    const wrong = await apiClient(server.url, "wam_not-a-real-token").get("/api/v1/wa_numbers");
    expect(wrong.status).toBe(401);
    const { id, token } = await createToken({ input: { teamId: team.id } });
    expect((await apiClient(server.url, token).get("/api/v1/wa_numbers")).status).toBe(200);
    await revokeTokenById({ input: { id } });
    const revoked = await apiClient(server.url, token).get("/api/v1/wa_numbers");
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ message: "Unauthenticated." });
  });
});
