import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createTeam } from "../helpers/factories";
import { createToken } from "@/lib/auth/tokens";

// Each test file runs in its own process, so this budget applies to this file only.
const LIMIT = 3;
const MESSAGE = /^Demasiadas solicitudes\. Intente de nuevo en (\d+) segundos\.$/;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  delete process.env.RATE_LIMIT_PER_MINUTE;
  vi.useRealTimers();
});

/**
 * Windows are whole minutes of the epoch, read from Date.now(): the clock (Date only; it keeps
 * running, timers stay real) is set to a second into the next minute, so a test's calls share
 * one window however slow the machine.
 */
function atMinuteStart() {
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000 + 1_000);
}

describe("per-token rate limit on /api/v1", () => {
  it("counts down in X-RateLimit-* headers, then answers 429 with Retry-After; errors spend budget too", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = String(LIMIT);
    atMinuteStart();
    const team = await createTeam();
    const other = await createTeam();
    const api = apiClient(server.url, team.token);

    const first = await api.get("/api/v1/wa_numbers");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
    expect(first.headers.get("x-ratelimit-remaining")).toBe("2");
    expect(Number(first.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    expect((await api.get("/api/v1/wa_numbers")).headers.get("x-ratelimit-remaining")).toBe("1");
    const bad = await api.get("/api/v1/contacts/labels?per_page=abc");
    expect(bad.status).toBe(422);
    expect(bad.headers.get("x-ratelimit-remaining")).toBe("0");

    const refused = await api.get("/api/v1/wa_numbers");
    expect(refused.status).toBe(429);
    expect(Object.keys(refused.body)).toEqual(["message"]);
    expect(refused.body.message).toMatch(MESSAGE);
    const seconds = MESSAGE.exec(refused.body.message)![1];
    expect(refused.headers.get("retry-after")).toBe(seconds);
    expect(refused.headers.get("x-ratelimit-reset")).toBe(seconds);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(seconds)).toBeGreaterThanOrEqual(1);
    expect(Number(seconds)).toBeLessThanOrEqual(60);

    expect((await apiClient(server.url, other.token).get("/api/v1/wa_numbers")).status).toBe(200);
  });

  it("gives every token its own budget: another team's or another token's calls spend none of it", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = String(LIMIT);
    atMinuteStart();
    const team = await createTeam();
    const other = await createTeam();
    for (let i = 0; i < LIMIT + 2; i++) await apiClient(server.url, other.token).get("/api/v1/wa_numbers");
    const second = await createToken({ input: { teamId: team.id, name: "second" } });
    for (let i = 0; i < LIMIT + 2; i++) await apiClient(server.url, second.token).get("/api/v1/wa_numbers");
    const res = await apiClient(server.url, team.token).get("/api/v1/wa_numbers");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-remaining")).toBe(String(LIMIT - 1));
  });

  it("answers 401 without a token before any budget is spent, with no rate-limit headers", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = String(LIMIT);
    const res = await apiClient(server.url).get("/api/v1/wa_numbers");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthenticated." });
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("RATE_LIMIT_PER_MINUTE=0 turns limiting off (no headers)", async () => {
    process.env.RATE_LIMIT_PER_MINUTE = "0";
    const team = await createTeam();
    const res = await apiClient(server.url, team.token).get("/api/v1/wa_numbers");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
