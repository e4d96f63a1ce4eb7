import { randomInt } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient, type ApiResponse } from "../helpers/client";
import { createAgent, createTeam } from "../helpers/factories";
import { sessionEndedMessage } from "@/lib/auth/session-schemas";

/**
 * Sign-in is throttled, never locked against its owner (docs/auth-limits.md): past 5 free wrong
 * passwords for one email from one address, each next attempt waits 2, 4, 8 … up to 60 s after
 * the last failure (429 with Retry-After); the account from elsewhere waits 10 s at most, a known
 * address not at all. Also the per-address failure budget (AUTH_FAILURES_PER_ADDRESS), the bound
 * on password hashes, concurrent right passwords and the cap on sessions per agent. The delays are
 * crossed by moving the clock (only Date is faked: sockets and timers run for real).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  // One trusted proxy in front: the client's address is the last X-Forwarded-For entry.
  process.env.TRUST_PROXY = "1";
  delete process.env.SIGN_IN_MAX_DELAY_SECONDS; // the defaults: delays from the 5th failure, at most 60 s
  delete process.env.SIGN_IN_FREE_FAILURES;
  delete process.env.SESSIONS_PER_AGENT;
  process.env.AUTH_FAILURES_PER_ADDRESS = "1000";
  // Only Date, and frozen: a delay ends exactly when the test moves the clock past it.
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const BAD = "El correo o la contraseña no son correctos.";
const LIMITED = /^Demasiados intentos fallidos\. Intente de nuevo en (\d+) segundos\.$/;

// Addresses unique per run, so reruns on a shared Postgres start from zero.
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

function signIn(email: string, password: string, from = address()) {
  // A client-written entry before the proxy's: it must be ignored.
  return apiClient(server.url).post("/api/v1/auth/login", { email, password }, { "x-forwarded-for": `1.2.3.4, ${from}` });
}

/** Checks a 429 of the throttle and returns its wait in seconds. */
function expectLimited(res: ApiResponse, maxSeconds = 30 * 60): number {
  expect(res.status).toBe(429);
  expect(Object.keys(res.body)).toEqual(["message"]);
  expect(res.body.message).toMatch(LIMITED);
  const seconds = Number(LIMITED.exec(res.body.message)![1]);
  expect(res.headers.get("retry-after")).toBe(String(seconds));
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(maxSeconds);
  expect(res.headers.get("set-cookie")).toBeNull();
  return seconds;
}

const later = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

/** `count` wrong passwords from `from`, waiting out each delay as a patient guesser would. */
async function wrongPasswords(email: string, count: number, from: string) {
  for (let n = 0; n < count;) {
    const res = await signIn(email, `mala-${n}`, from);
    if (res.status === 429) {
      later(expectLimited(res, 60));
      continue;
    }
    expect(res.status).toBe(422);
    n++;
  }
}

// Each sign-in runs a real scrypt hash; a loaded 2-core machine needs the margin.
describe("sign-in delays, never a lockout", { timeout: 180_000 }, () => {
  it("the right password signs in after 20 wrong ones, once the delay (2, 4, 8 … at most 60 s) has passed", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-1");
    const from = address();
    const waits: number[] = [];
    for (let i = 1; i <= 20; i++) {
      const res = await signIn(agent.email, `mala-${i}`, from);
      expect(res.status, `wrong password ${i}`).toBe(422);
      expect(res.body).toEqual({ message: BAD, errors: { email: [BAD] } });
      if (i < 5) continue; // free: the next attempt need not wait
      const wait = expectLimited(await signIn(agent.email, "clave-correcta-1", from), 60);
      waits.push(wait);
      if (i < 20) later(wait);
    }
    expect(waits).toEqual([2, 4, 8, 16, 32, ...Array(11).fill(60)]);
    later(59);
    expectLimited(await signIn(agent.email, "clave-correcta-1", from), 1);
    later(1);
    const res = await signIn(agent.email, "clave-correcta-1", from);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/^wa_session=/);
    // The success forgot the failures: the next typo is free again.
    expect((await signIn(agent.email, "mala", from)).status).toBe(422);
    expect((await signIn(agent.email, "mala", from)).status).toBe(422);
  });

  it("guesses from one address hold the owner elsewhere 10 s at most, and at an address they signed in from not at all", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-2");
    const home = address();
    expect((await signIn(agent.email, "clave-correcta-2", home)).status).toBe(200);
    const attacker = address();
    await wrongPasswords(agent.email, 20, attacker);
    // A new address waits for the account's delay (10 s at most) …
    const travelling = address();
    expect(expectLimited(await signIn(agent.email, "clave-correcta-2", travelling), 10)).toBe(10);
    // … the owner's usual address does not wait at all …
    expect((await signIn(agent.email, "clave-correcta-2", home)).status).toBe(200);
    // … and the attacker still waits its own minute.
    expectLimited(await signIn(agent.email, "clave-correcta-2", attacker), 60);
    later(10);
    expect((await signIn(agent.email, "clave-correcta-2", travelling)).status).toBe(200);
  });

  it("an unknown email gets the very same answers in the same order; case and spaces make no other account", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-3");
    const unknown = `nadie-${agent.id}-${randomInt(1e9)}@example.com`;
    const answers: string[][] = [];
    for (const email of [agent.email, unknown]) {
      const from = address();
      const seen: string[] = [];
      const note = (res: ApiResponse) => seen.push(`${res.status} ${res.headers.get("retry-after") ?? "-"}`);
      for (let i = 0; i < 5; i++) note(await signIn(email, `mala-${i}`, from));
      note(await signIn(` ${email.toUpperCase()} `, "mala", from));
      later(2);
      note(await signIn(email, "mala", from));
      note(await signIn(email, "mala", from));
      answers.push(seen);
    }
    expect(answers[0]).toEqual(["422 -", "422 -", "422 -", "422 -", "422 -", "429 2", "422 -", "429 4"]);
    expect(answers[1]).toEqual(answers[0]);
  });

  it("parallel guesses cannot all pass an expired delay: one is checked, the others wait", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-4");
    const from = address();
    for (let i = 0; i < 5; i++) expect((await signIn(agent.email, `mala-${i}`, from)).status).toBe(422);
    later(2);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn(agent.email, `paralela-${i}`, from)));
    expect(answers.filter((r) => r.status === 422)).toHaveLength(1);
    const limited = answers.filter((r) => r.status === 429);
    expect(limited).toHaveLength(9);
    for (const r of limited) expect(expectLimited(r, 4)).toBeGreaterThanOrEqual(2);
  });

  it("SIGN_IN_FREE_FAILURES and SIGN_IN_MAX_DELAY_SECONDS set the free failures and the longest delay", async () => {
    process.env.SIGN_IN_FREE_FAILURES = "1";
    process.env.SIGN_IN_MAX_DELAY_SECONDS = "3";
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-5");
    const from = address();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      expect((await signIn(agent.email, "mala", from)).status).toBe(422);
      waits.push(expectLimited(await signIn(agent.email, "mala", from), 3));
      later(waits.at(-1)!);
    }
    expect(waits).toEqual([2, 3, 3, 3]);
    expect((await signIn(agent.email, "clave-correcta-5", from)).status).toBe(200);
  });
});

describe("concurrent sign-ins and the sessions per agent", { timeout: 180_000 }, () => {
  it("40 concurrent right sign-ins of one agent from one address all answer 200; only the newest 10 sessions stay open", async () => {
    delete process.env.AUTH_FAILURES_PER_ADDRESS; // the default, 100
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-6");
    const from = address();
    const answers = await Promise.all(Array.from({ length: 40 }, () => signIn(agent.email, "clave-correcta-6", from)));
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(200));

    const cookies = answers.map((r) => r.headers.get("set-cookie")!.split(";")[0]);
    const me = await Promise.all(cookies.map((cookie) => apiClient(server.url).get("/api/v1/auth/me", { cookie })));
    expect(me.filter((r) => r.status === 200)).toHaveLength(10);
    const ended = me.filter((r) => r.status === 401);
    expect(ended).toHaveLength(30);
    for (const r of ended) expect(r.body).toEqual({ message: sessionEndedMessage(10) });
  });

  it("signing in once more than SESSIONS_PER_AGENT ends the oldest session, whose next request is told why", async () => {
    process.env.SESSIONS_PER_AGENT = "3";
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-7");
    const from = address();
    const cookies: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await signIn(agent.email, "clave-correcta-7", from);
      expect(res.status).toBe(200);
      cookies.push(res.headers.get("set-cookie")!.split(";")[0]);
    }
    const me = (cookie: string) => apiClient(server.url).get("/api/v1/auth/me", { cookie });
    const oldest = await me(cookies[0]);
    expect(oldest.status).toBe(401);
    expect(oldest.body).toEqual({
      message:
        "Esta sesión se cerró porque su cuenta inició otra y cada agente puede tener hasta 3 sesiones abiertas (se cierra la más antigua). Inicie sesión de nuevo.",
    });
    for (const cookie of cookies.slice(1)) expect((await me(cookie)).status).toBe(200);
    // Signing out one of them leaves room: the next sign-in ends none.
    const out = await apiClient(server.url).post("/api/v1/auth/logout", undefined, { cookie: cookies[1], "sec-fetch-site": "same-origin" });
    expect(out.status).toBeLessThan(300);
    const again = await signIn(agent.email, "clave-correcta-7", from);
    expect(again.status).toBe(200);
    for (const cookie of cookies.slice(2)) expect((await me(cookie)).status).toBe(200);
  });
});

describe("failed sign-ins per client address", { timeout: 120_000 }, () => {
  it("spends AUTH_FAILURES_PER_ADDRESS over every account; a success from that address neither counts nor resets it; an account that signed in from it and other addresses are untouched", async () => {
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
    // Five failures from this address: every account that never signed in from it waits now, the
    // right password too …
    expectLimited(await signIn(agents[0].email, "clave-1", from));
    expectLimited(await signIn(agents[2].email, "clave-3", from));
    // … but agent 2 signed in from it: that pair is only ever slowed by its own failures.
    expect((await signIn(agents[1].email, "clave-2", from)).status).toBe(200);
    // The same accounts from another address: nothing to wait for.
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
