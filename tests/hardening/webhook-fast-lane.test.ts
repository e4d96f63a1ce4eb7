import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareBuiltApp, startBuiltApp, type AppProcess } from "../helpers/built-app";

/**
 * The fast lane is wired into `next start` (instrumentation.node.ts): Meta's webhook posts are
 * answered before Next's pipeline, every other request still reaches Next. Its answers are the
 * route's (tests/meta-webhooks/fast-lane.test.ts compares them case by case); what tells the two
 * apart from outside is Next's own `Vary` header, which only answers that went through Next carry.
 */
let appDir: string;
const apps: AppProcess[] = [];

beforeAll(() => {
  appDir = prepareBuiltApp("webhook-fast-lane");
}, 900_000);
afterAll(async () => {
  for (const app of apps) await app.cleanup();
});

async function unsignedPost(app: AppProcess) {
  const res = await fetch(`${app.url}/api/v1/webhooks/whatsapp`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ object: "whatsapp_business_account", entry: [] }),
  });
  return { status: res.status, body: await res.json(), vary: res.headers.get("vary"), nosniff: res.headers.get("x-content-type-options") };
}

describe("WEBHOOK_FAST_LANE under next start", () => {
  it("answers Meta's posts before Next by default, and leaves them to Next with WEBHOOK_FAST_LANE=0", async () => {
    const [lane, plain] = await Promise.all([startBuiltApp(appDir), startBuiltApp(appDir, { WEBHOOK_FAST_LANE: "0" })]);
    apps.push(lane, plain);
    const refused = { status: 401, body: { message: "Firma de webhook inválida." }, nosniff: "nosniff" };
    for (let i = 0; i < 3; i++) {
      expect(await unsignedPost(lane)).toEqual({ ...refused, vary: null });
      expect(await unsignedPost(plain)).toMatchObject(refused);
    }
    expect((await unsignedPost(plain)).vary).toMatch(/rsc/);
    // Every other request still goes through Next on the fast lane's server.
    const handshake = await fetch(`${lane.url}/api/v1/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`);
    expect(handshake.status).toBe(403);
    expect(handshake.headers.get("vary")).toMatch(/rsc/);
    const numbers = await fetch(`${lane.url}/api/v1/wa_numbers`, { headers: { authorization: `Bearer ${lane.token}` } });
    expect(numbers.status).toBe(200);
  }, 600_000);
});
