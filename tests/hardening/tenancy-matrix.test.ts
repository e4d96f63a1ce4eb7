import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { createWorld, teamDigest, type World } from "../helpers/hardening-world";
import { ENDPOINTS } from "../helpers/hardening-routes";

/**
 * One table: every endpoint and every id-bearing parameter. Team A's token names team B's row
 * (`foreign`) and then a row that exists nowhere (`missing`): both answers must be identical,
 * once the id itself is swapped in the text, and neither team's rows may change.
 */
type Case = {
  endpoint: string;
  param: string;
  foreign: (b: World) => string | number;
  missing: (b: World) => string | number;
  /** The request with the parameter set to `v`, for team A's world. */
  request: (a: World, v: string | number) => { path: string; body?: Record<string, unknown> };
  /** Ruling 14: an unknown customer has an empty history (200), not an error. */
  emptyOk?: boolean;
};

const NO_ID = 2000000001;
const ep = (name: string) => ENDPOINTS.find((e) => e.name === name)!;
const withBody = (name: string, patch: (a: World, v: string | number) => Record<string, unknown>) => (a: World, v: string | number) => ({
  path: ep(name).path(a),
  body: { ...ep(name).valid!(a), ...patch(a, v) },
});
const bulkRecipient = (a: World, patch: Record<string, unknown>) => {
  const valid = ep("send bulk").valid!(a) as { recipients: Record<string, unknown>[] };
  return { ...valid, ...patch };
};
const q = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
const history = (a: World, over: Record<string, string | number>) => ({
  path: `/api/v1/messages/whatsapp/history?${q({ ...(ep("history").valid!(a) as Record<string, string>), ...over })}`,
});

const id = (f: (b: World) => number) => ({ foreign: f, missing: () => NO_ID });
const CASES: Case[] = [
  {
    endpoint: "contact update",
    param: "contactId",
    ...id((b) => b.contact.id),
    request: (_a, v) => ({ path: `/api/v1/contacts/${v}`, body: { marketing_opt_out: true } }),
  },
  ...(["contact labels add", "contact labels remove"] as const).flatMap((name): Case[] => [
    {
      endpoint: name,
      param: "contactId",
      ...id((b) => b.contact.id),
      request: (a, v) => ({ path: `/api/v1/contacts/${v}/labels`, body: ep(name).valid!(a) }),
    },
    { endpoint: name, param: "label_ids[]", ...id((b) => b.labels[0].id), request: withBody(name, (_a, v) => ({ label_ids: [v] })) },
    {
      endpoint: name,
      param: "label_ids[] beside an own id",
      ...id((b) => b.labels[0].id),
      request: withBody(name, (a, v) => ({ label_ids: [a.labels[0].id, v] })),
    },
  ]),
  {
    endpoint: "label update",
    param: "labelId",
    ...id((b) => b.labels[1].id),
    request: (a, v) => ({ path: `/api/v1/contacts/labels/${v}`, body: { title: "cambiada" } }),
  },
  {
    endpoint: "label delete",
    param: "labelId",
    ...id((b) => b.labels[1].id),
    request: (_a, v) => ({ path: `/api/v1/contacts/labels/${v}` }),
  },
  ...(["labels_any", "labels_all", "labels_exclude"] as const).map((list): Case => ({
    endpoint: "broadcast create",
    param: `audience.${list}[]`,
    ...id((b) => b.labels[0].id),
    request: withBody("broadcast create", (a, v) => ({
      audience: list === "labels_any" ? { labels_any: [a.labels[0].id, v] } : { labels_any: [a.labels[0].id], [list]: [v] },
    })),
  })),
  {
    endpoint: "broadcast create",
    param: "wa_number",
    foreign: (b) => b.number.number,
    missing: () => "573999999999",
    request: withBody("broadcast create", (_a, v) => ({ wa_number: v })),
  },
  ...(["send", "send bulk"] as const).flatMap((name): Case[] => {
    const body = (patch: (a: World, v: string | number) => Record<string, unknown>) =>
      name === "send"
        ? withBody(name, patch)
        : (a: World, v: string | number) => ({ path: ep(name).path(a), body: bulkRecipient(a, patch(a, v)) });
    return [
      {
        endpoint: name,
        param: "wa_number",
        foreign: (b) => b.number.number,
        missing: () => "19999999999",
        request: body((_a, v) => ({ wa_number: v })),
      },
      {
        endpoint: name,
        param: "template_name",
        foreign: (b) => b.template.name,
        missing: () => "tpl_nowhere",
        request: body((_a, v) => ({ template_name: v })),
      },
      { endpoint: name, param: "bot_id", ...id((b) => b.bot.id), request: body((_a, v) => ({ response_handler: "CHATBOT", bot_id: v })) },
      { endpoint: name, param: "campaign_id", ...id((b) => b.campaign.id), request: body((_a, v) => ({ campaign_id: v })) },
      {
        endpoint: name,
        param: "media_path",
        foreign: (b) => b.mediaPath,
        missing: (b) => `uploads/team${b.team.id}/${randomUUID()}.pdf`,
        request: body((a, v) => ({
          template_name: a.docTemplate.name,
          header_param: null,
          body_params: [{ key: "1", value: "Ana" }],
          media_path: v,
        })),
      },
    ];
  }),
  {
    endpoint: "history",
    param: "wa_number",
    foreign: (b) => b.number.number,
    missing: () => "19999999999",
    request: (a, v) => history(a, { wa_number: v }),
  },
  {
    endpoint: "history",
    param: "customer_source",
    foreign: (b) => b.contact.customerNumber!,
    missing: () => "19999999998",
    request: (a, v) => history(a, { customer_source: v }),
    emptyOk: true,
  },
  {
    endpoint: "history",
    param: "customer_source (customer_id)",
    foreign: (b) => b.contact.customerId!,
    missing: () => "cus_nowhere",
    request: (a, v) => history(a, { customer_source: v }),
    emptyOk: true,
  },
  {
    endpoint: "templates",
    param: "wa_number",
    foreign: (b) => b.number.number,
    missing: () => "19999999999",
    request: (_a, v) => ({ path: `/api/v1/message_templates?${q({ wa_number: v })}` }),
  },
  {
    endpoint: "update",
    param: "update_id",
    foreign: (b) => b.updateId,
    missing: () => randomUUID(),
    request: (_a, v) => ({ path: `/api/v1/updates/${v}` }),
  },
  {
    endpoint: "update media",
    param: "update_id",
    foreign: (b) => b.updateId,
    missing: () => randomUUID(),
    request: (_a, v) => ({ path: `/api/v1/updates/${v}/media` }),
  },
  {
    endpoint: "media get",
    param: "path",
    foreign: (b) => b.mediaPath,
    missing: (b) => `uploads/team${b.team.id}/${randomUUID()}.pdf`,
    request: (_a, v) => ({ path: `/api/v1/media/${v}` }),
  },
  {
    endpoint: "template changes",
    param: "templateId",
    ...id((b) => b.template.id),
    request: (_a, v) => ({ path: `/api/v1/message_templates/${v}/changes` }),
  },
  {
    endpoint: "sandbox inbound",
    param: "wa_number",
    foreign: (b) => b.number.number,
    missing: () => "19999999999",
    request: withBody("sandbox inbound", (_a, v) => ({ wa_number: v })),
  },
  {
    endpoint: "sandbox inbound",
    param: "context_update_id",
    foreign: (b) => b.updateId,
    missing: () => randomUUID(),
    request: withBody("sandbox inbound", (_a, v) => ({ context_update_id: v })),
  },
];

let server: TestServer;
let a: World;
let b: World;
beforeAll(async () => {
  server = await startServer();
  [a, b] = [await createWorld(), await createWorld()];
});
afterAll(() => server.close());

async function call(method: string, req: { path: string; body?: Record<string, unknown> }) {
  const res = await fetch(server.url + req.path, {
    method,
    headers: { authorization: `Bearer ${a.token}`, ...(req.body ? { "content-type": "application/json" } : {}) },
    body: req.body ? JSON.stringify(req.body) : undefined,
  });
  return { status: res.status, text: await res.text() };
}

describe("tenancy matrix: another team's id answers exactly like a missing one", () => {
  it("covers every endpoint that takes an id", () => {
    const covered = new Set(CASES.map((c) => c.endpoint));
    for (const name of [
      "contact update",
      "contact labels add",
      "contact labels remove",
      "label update",
      "label delete",
      "send",
      "send bulk",
      "history",
      "templates",
      "update",
      "update media",
      "template changes",
      "media get",
      "sandbox inbound",
      "broadcast create",
    ]) {
      expect(covered, name).toContain(name);
    }
  });

  it.each(CASES.map((c) => [`${c.endpoint} / ${c.param}`, c] as const))("%s", async (_name, c) => {
    const method = ep(c.endpoint).method;
    const before = [await teamDigest(a.team.id), await teamDigest(b.team.id)];
    const foreignValue = c.foreign(b);
    const missingValue = c.missing(b);
    const foreign = await call(method, c.request(a, foreignValue));
    const missing = await call(method, c.request(a, missingValue));
    if (c.emptyOk) expect(JSON.parse(foreign.text).data).toEqual([]);
    else expect(foreign.status, foreign.text).toBeGreaterThanOrEqual(400);
    expect(foreign.status).toBe(missing.status);
    expect(foreign.text.split(String(foreignValue)).join(String(missingValue))).toBe(missing.text);
    expect([await teamDigest(a.team.id), await teamDigest(b.team.id)]).toEqual(before);
  });
});
