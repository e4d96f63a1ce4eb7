import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { createTeam } from "../helpers/factories";
import { createCloudNumber, sign } from "../helpers/delivery-factories";
import { change, envelope, inboundMessage } from "../fixtures/webhooks";
import { getDb } from "@/db/client";
import { waNumbers } from "@/db/schema";
import { encryptJson } from "@/lib/crypto/secrets";
import { secretLoads } from "@/lib/meta-webhooks/secrets";
import { secretsVersion } from "@/lib/meta-webhooks/repo";

/**
 * Review finding 10: unsigned webhook floods reloaded and decrypted every number's secrets on each
 * post. Secrets are cached per process (reloaded only when the secrets version moves), and failed
 * authentications on the public webhook routes spend a per-address budget (429 once spent).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  process.env.TRUST_PROXY = "1";
  process.env.AUTH_FAILURES_PER_ADDRESS = "20";
});

const LIMITED = /^Demasiados intentos fallidos\. Intente de nuevo en (\d+) segundos\.$/;
const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const customer = () => `57300${randomInt(1_000_000, 9_999_999)}`;

async function post(body: unknown, o: { secret?: string; signature?: string; from: string }) {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json", "x-forwarded-for": o.from };
  const signature = o.signature ?? (o.secret ? sign(o.secret, raw) : undefined);
  if (signature) headers["x-hub-signature-256"] = signature;
  const res = await fetch(`${server.url}/api/v1/webhooks/whatsapp`, { method: "POST", headers, body: raw });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const oneMessage = (phoneNumberId: string) => {
  const from = customer();
  return envelope(change(phoneNumberId, { contacts: [{ wa_id: from, name: "Ana" }], messages: [inboundMessage("text", { from })] }));
};

describe("unsigned webhook floods", () => {
  it("answer 429 after AUTH_FAILURES_PER_ADDRESS failures from one address, without reloading any secret; signed posts from another address still succeed", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const flooder = address();
    const meta = address();
    expect((await post(oneMessage(number.phoneNumberId), { secret: number.secrets.appSecret, from: meta })).status).toBe(200);
    const loads = secretLoads();
    const version = await secretsVersion(await getDb());

    const answers = [];
    for (let i = 0; i < 30; i++) {
      const body = oneMessage(number.phoneNumberId);
      // Unsigned, signed with another secret, and a malformed header: all fail the same way.
      const signature = i % 3 === 0 ? undefined : i % 3 === 1 ? sign("not-our-secret", JSON.stringify(body)) : "sha256=zz";
      answers.push(await post(body, { signature, from: flooder }));
    }
    expect(answers.slice(0, 20).map((a) => a.status)).toEqual(Array(20).fill(401));
    for (const a of answers.slice(20)) {
      expect(a.status).toBe(429);
      expect(Object.keys(a.body)).toEqual(["message"]);
      expect(a.body.message).toMatch(LIMITED);
      expect(a.headers.get("retry-after")).toBe(LIMITED.exec(a.body.message)![1]);
    }
    // No post of the flood loaded or decrypted the numbers' secrets again. (On a shared Postgres,
    // other test files add numbers meanwhile: each such change may cost one reload, no more, plus
    // one for a change made between this process's last load and the `version` read above.)
    expect(secretLoads() - loads).toBeLessThanOrEqual((await secretsVersion(await getDb())) - version + 1);
    if (!process.env.DATABASE_URL) expect(secretLoads()).toBe(loads);

    expect((await post(oneMessage(number.phoneNumberId), { secret: number.secrets.appSecret, from: meta })).status).toBe(200);
    // The budget is read only when no secret this process holds signed the body: a genuine post
    // from a spent address still lands (a flood through a shared address, such as a proxy, cannot
    // lock Meta out), while its forgeries keep getting 429.
    expect((await post(oneMessage(number.phoneNumberId), { secret: number.secrets.appSecret, from: flooder })).status).toBe(200);
    expect((await post(oneMessage(number.phoneNumberId), { from: flooder })).status).toBe(429);
  });

  it("parallel unsigned posts stop at the budget too, and genuine signed posts never spend it", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = address();
    for (let i = 0; i < 25; i++) {
      expect((await post(oneMessage(number.phoneNumberId), { secret: number.secrets.appSecret, from })).status).toBe(200);
    }
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(oneMessage(number.phoneNumberId), { from })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // Checked before, counted after: posts of one burst that were all checked before any failed
    // may pass the budget together; the next one finds it spent.
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(20);
    expect((await post(oneMessage(number.phoneNumberId), { from })).status).toBe(429);
  });

  it("wrong verify tokens on the GET handshake spend the same budget", async () => {
    process.env.AUTH_FAILURES_PER_ADDRESS = "3";
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = address();
    const verify = (token: string, xff = from) =>
      fetch(`${server.url}/api/v1/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=42`, {
        headers: { "x-forwarded-for": xff },
      });
    for (let i = 0; i < 3; i++) expect((await verify(`guess-${i}`)).status).toBe(403);
    const limited = await verify(number.secrets.verifyToken);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    const ok = await verify(number.secrets.verifyToken, address());
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("42");
  });
});

describe("cached webhook secrets", () => {
  it("follow a credential change made by another process: the old secret stops within a second, the new one works at once", async () => {
    // The cache's trust is read from Date.now(): that clock (Date only; timers stay real) is moved on.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    onTestFinished(() => void vi.useRealTimers());
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = address();
    expect((await post(oneMessage(number.phoneNumberId), { secret: number.secrets.appSecret, from })).status).toBe(200);

    // Straight in the database, as the admin CLI or another replica would: this process is not told.
    const db = await getDb();
    const rotate = async () => {
      const secrets = { ...number.secrets, appSecret: `rotated-${randomInt(1e9)}` };
      await db
        .update(waNumbers)
        .set({ credentials: encryptJson(secrets) })
        .where(eq(waNumbers.id, number.id));
      return secrets.appSecret;
    };
    const second = await rotate();
    // Just past the cached secrets' one second of trust.
    vi.setSystemTime(Date.now() + 1_100);
    expect((await post(oneMessage(number.phoneNumberId), { secret: number.secrets.appSecret, from })).status).toBe(401);
    expect((await post(oneMessage(number.phoneNumberId), { secret: second, from })).status).toBe(200);
    const third = await rotate();
    expect((await post(oneMessage(number.phoneNumberId), { secret: third, from })).status).toBe(200);
  });

  it("a number added by this process is accepted on its first webhook", async () => {
    const team = await createTeam();
    const first = await createCloudNumber(team.id);
    const from = address();
    expect((await post(oneMessage(first.phoneNumberId), { secret: first.secrets.appSecret, from })).status).toBe(200);
    const second = await createCloudNumber(team.id);
    expect((await post(oneMessage(second.phoneNumberId), { secret: second.secrets.appSecret, from })).status).toBe(200);
  });
});
