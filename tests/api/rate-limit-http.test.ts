import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createTeam } from "../helpers/factories";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  delete process.env.RATE_LIMIT_PER_MINUTE;
});

describe("per-token rate limit on /api/v1", () => {
  it("answers 429 with Retry-After and X-RateLimit-* once a token spends its budget, other tokens unaffected", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "3";
    // Windows are whole minutes of the epoch: start well inside one so the four calls share it.
    const toBoundary = 60_000 - (Date.now() % 60_000);
    if (toBoundary < 15_000) await new Promise((r) => setTimeout(r, toBoundary + 200));
    const team = await createTeam();
    const other = await createTeam();
    const api = apiClient(server.url, team.token);
    const first = await api.get("/api/v1/wa_numbers");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("3");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("2");
    await api.get("/api/v1/wa_numbers");
    // Errors spend budget and carry the headers too.
    const bad = await api.get("/api/v1/contacts/labels?per_page=abc");
    expect(bad.status).toBe(422);
    expect(bad.headers.get("x-ratelimit-remaining")).toBe("0");
    const limited = await api.get("/api/v1/wa_numbers");
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({ message: `Demasiadas solicitudes. Intente de nuevo en ${limited.headers.get("x-ratelimit-reset")} segundos.` });
    expect((await apiClient(server.url, other.token).get("/api/v1/wa_numbers")).status).toBe(200);
  });

  it("RATE_LIMIT_PER_MINUTE=0 turns limiting off (no headers)", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "0";
    const team = await createTeam();
    const res = await apiClient(server.url, team.token).get("/api/v1/wa_numbers");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
