import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "./helpers/server";
import { apiClient } from "./helpers/client";
import { createTeam } from "./helpers/factories";
import { createToken } from "@/lib/auth/tokens";

// Each test file runs in its own process, so this budget applies to this file only.
const LIMIT = 3;
let server: TestServer;
let saved: string | undefined;
beforeAll(async () => {
  saved = process.env.RATE_LIMIT_PER_MINUTE;
  process.env.RATE_LIMIT_PER_MINUTE = String(LIMIT);
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  if (saved === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
  else process.env.RATE_LIMIT_PER_MINUTE = saved;
});

const MESSAGE = /^Demasiadas solicitudes\. Intente de nuevo en (\d+) segundos\.$/;

describe("per-token rate limit on /api/v1", () => {
  it("counts down in X-RateLimit-* headers, then answers 429 with Retry-After", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    // Windows are whole minutes: start well inside one so the four calls share it.
    const msLeft = 60_000 - (Date.now() % 60_000);
    if (msLeft < 8_000) await new Promise((r) => setTimeout(r, msLeft + 100));
    const remaining: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await api.get("/api/v1/wa_numbers");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(1);
      remaining.push(res.headers.get("x-ratelimit-remaining")!);
    }
    expect(remaining.at(-1)).toBe("0");
    const refused = await api.get("/api/v1/wa_numbers");
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(MESSAGE);
    expect(Object.keys(refused.body)).toEqual(["message"]);
    const seconds = MESSAGE.exec(refused.body.message)![1];
    expect(refused.headers.get("retry-after")).toBe(seconds);
    expect(refused.headers.get("x-ratelimit-reset")).toBe(seconds);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(seconds)).toBeGreaterThanOrEqual(1);
    expect(Number(seconds)).toBeLessThanOrEqual(60);
  });

  it("gives every token its own budget: another team's or another token's calls spend none of it", async () => {
    const team = await createTeam();
    const other = await createTeam();
    for (let i = 0; i < LIMIT + 2; i++) await apiClient(server.url, other.token).get("/api/v1/wa_numbers");
    const second = await createToken({ input: { teamId: team.id, name: "second" } });
    for (let i = 0; i < LIMIT + 2; i++) await apiClient(server.url, second.token).get("/api/v1/wa_numbers");
    const res = await apiClient(server.url, team.token).get("/api/v1/wa_numbers");
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(LIMIT - 1);
  });

  it("answers 401 without a token before any budget is spent, with no rate-limit headers", async () => {
    const res = await apiClient(server.url).get("/api/v1/wa_numbers");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthenticated." });
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
