import { randomInt } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient, type ApiResponse } from "../helpers/client";
import { createAgent, createTeam } from "../helpers/factories";

/**
 * Sign-in failure budgets (review finding 2): per account (default 10 per 15 minutes) and per
 * client address (AUTH_FAILURES_PER_ADDRESS), counted in Postgres; 429 with Retry-After once spent,
 * the same for known and unknown emails; password hashes bounded per process.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  // One trusted proxy in front: the client's address is the last X-Forwarded-For entry.
  process.env.TRUST_PROXY = "1";
  delete process.env.SIGN_IN_FAILURES_PER_ACCOUNT; // the default, 10
  process.env.AUTH_FAILURES_PER_ADDRESS = "1000";
});

const BAD = "El correo o la contraseña no son correctos.";
const LIMITED = /^Demasiados intentos fallidos\. Intente de nuevo en (\d+) segundos\.$/;

// Addresses unique per run, so reruns on a shared Postgres within the window start from zero.
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function signIn(email: string, password: string, from = address()) {
  // A client-written entry before the proxy's: it must be ignored.
  return apiClient(server.url).post("/api/v1/auth/login", { email, password }, { "x-forwarded-for": `1.2.3.4, ${from}` });
}

function expectLimited(res: ApiResponse) {
  expect(res.status).toBe(429);
  expect(Object.keys(res.body)).toEqual(["message"]);
  expect(res.body.message).toMatch(LIMITED);
  const seconds = Number(LIMITED.exec(res.body.message)![1]);
  expect(res.headers.get("retry-after")).toBe(String(seconds));
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(30 * 60);
  expect(res.headers.get("set-cookie")).toBeNull();
}

// Each sign-in runs a real scrypt hash; a loaded 2-core machine needs the margin.
describe("failed sign-ins per account", { timeout: 120_000 }, () => {
  it("after 10 wrong passwords answers 429 with Retry-After, even to the right password; an unknown email gets the very same answers", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-1");
    const unknown = `nadie-${agent.id}-${randomInt(1e9)}@example.com`;
    // Each attempt from another address: the account's budget does not depend on where guesses come from.
    for (const email of [agent.email, unknown]) {
      for (let i = 0; i < 10; i++) {
        const res = await signIn(email, `mala-${i}`);
        expect(res.status, `${email} attempt ${i + 1}`).toBe(422);
        expect(res.body).toEqual({ message: BAD, errors: { email: [BAD] } });
      }
      expectLimited(await signIn(email, "mala-11"));
      expectLimited(await signIn(email, "clave-correcta-1"));
      // Case and spaces do not make another account.
      expectLimited(await signIn(` ${email.toUpperCase()} `, "clave-correcta-1"));
    }
    // Another account on the same team and addresses is untouched.
    const other = await createAgent(team.id, "clave-correcta-2");
    expect((await signIn(other.email, "clave-correcta-2")).status).toBe(200);
  });

  it("a successful sign-in clears the account's failures (the owner's typos do not add up across sign-ins)", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-3");
    for (let i = 0; i < 9; i++) expect((await signIn(agent.email, "mala")).status).toBe(422);
    expect((await signIn(agent.email, "clave-correcta-3")).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await signIn(agent.email, "mala")).status).toBe(422);
    expectLimited(await signIn(agent.email, "mala"));
  });

  it("SIGN_IN_FAILURES_PER_ACCOUNT sets the budget", async () => {
    process.env.SIGN_IN_FAILURES_PER_ACCOUNT = "2";
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-4");
    expect((await signIn(agent.email, "mala")).status).toBe(422);
    expect((await signIn(agent.email, "mala")).status).toBe(422);
    expectLimited(await signIn(agent.email, "clave-correcta-4"));
  });
});

describe("failed sign-ins per client address", { timeout: 120_000 }, () => {
  it("spends AUTH_FAILURES_PER_ADDRESS over every account; a success from that address neither counts nor resets it; other addresses are untouched", async () => {
    process.env.AUTH_FAILURES_PER_ADDRESS = "5";
    const team = await createTeam();
    const agents = await Promise.all([1, 2, 3].map((i) => createAgent(team.id, `clave-${i}`)));
    const from = address();
    expect((await signIn(agents[0].email, "mala", from)).status).toBe(422);
    expect((await signIn(agents[0].email, "mala", from)).status).toBe(422);
    expect((await signIn(agents[1].email, "clave-2", from)).status).toBe(200);
    expect((await signIn(agents[2].email, "mala", from)).status).toBe(422);
    expect((await signIn(`nadie-${randomInt(1e9)}@example.com`, "mala", from)).status).toBe(422);
    expect((await signIn(agents[2].email, "mala", from)).status).toBe(422);
    // Five failures from this address: everything from it waits now, the right password too.
    expectLimited(await signIn(agents[1].email, "clave-2", from));
    expectLimited(await signIn(agents[0].email, "clave-1", from));
    // The same accounts from another address: agent 3 has 2 failures of its 10, agent 1 has 2.
    expect((await signIn(agents[0].email, "clave-1", address())).status).toBe(200);
    expect((await signIn(agents[2].email, "clave-3", address())).status).toBe(200);
  });

  it("without a trusted proxy (TRUST_PROXY unset) the address is the last X-Forwarded-For entry, the one `next start` writes from the socket", async () => {
    delete process.env.TRUST_PROXY;
    process.env.AUTH_FAILURES_PER_ADDRESS = "2";
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-5");
    const from = address();
    const post = (password: string, xff: string) =>
      apiClient(server.url).post("/api/v1/auth/login", { email: agent.email, password }, { "x-forwarded-for": xff });
    expect((await post("mala", `5.6.7.8, ${from}`)).status).toBe(422);
    expect((await post("mala", from)).status).toBe(422);
    expectLimited(await post("clave-5", `9.9.9.9, ${from}`));
    // With no header at all the test server, like `next start`, writes the socket's address.
    expect((await apiClient(server.url).post("/api/v1/auth/login", { email: agent.email, password: "clave-5" })).status).toBe(200);
  });
});

describe("password hashing under a flood", { timeout: 120_000 }, () => {
  it("parallel wrong sign-ins from one address: the budget answers the rest 429 without hashing, and an authenticated request meanwhile answers", async () => {
    process.env.AUTH_FAILURES_PER_ADDRESS = "5";
    const team = await createTeam();
    const from = address();
    const flood = Promise.all(Array.from({ length: 60 }, (_, i) => signIn(`flood-${i}-${randomInt(1e9)}@example.com`, "mala", from)));
    const api = await apiClient(server.url, team.token).get("/api/v1/wa_numbers");
    expect(api.status).toBe(200);
    const answers = await flood;
    const count = (s: number) => answers.filter((r) => r.status === s).length;
    // At most 5 reached the hash (reserved before hashing, so a burst cannot overshoot);
    // a few may have been turned away by the full hash queue instead (503, not a failure).
    expect(count(422)).toBeLessThanOrEqual(5);
    expect(count(429)).toBeGreaterThanOrEqual(55);
    expect(count(422) + count(429) + count(503)).toBe(60);
    for (const r of answers.filter((a) => a.status === 429)) expectLimited(r);
  });

  it("parallel wrong sign-ins from many addresses: the hash queue is bounded (503 with Retry-After beyond it, given back to the budgets), authenticated requests still answer", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-6");
    const flood = Promise.all(Array.from({ length: 60 }, () => signIn(`x-${randomInt(1e9)}@example.com`, "mala")));
    const api = await apiClient(server.url, team.token).get("/api/v1/wa_numbers");
    expect(api.status).toBe(200);
    const answers = await flood;
    const busy = answers.filter((r) => r.status === 503);
    expect(
      answers.every((r) => r.status === 422 || r.status === 503),
      JSON.stringify(answers.map((r) => r.status)),
    ).toBe(true);
    // 2 hashes at a time and 8 waiting: most of 60 simultaneous requests find the line full.
    expect(busy.length).toBeGreaterThan(0);
    for (const r of busy) {
      expect(r.body).toEqual({ message: "El servicio está ocupado. Intente de nuevo en unos segundos." });
      expect(r.headers.get("retry-after")).toBe("1");
    }
    // Once the burst is over, sign-in works again.
    expect((await signIn(agent.email, "clave-6")).status).toBe(200);
  });
});
