import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { realDelay } from "../helpers/real-delay";
import { postAccountWebhook, type AccountChange } from "./account-webhooks";
import { answerTemplateWrite, type TemplateWriteCall } from "./graph-template-admin";

/**
 * A local stand-in for the Graph API (test-only), speaking the documented Cloud API shapes:
 * POST /{version}/{phone_number_id}/messages (sends, and read receipts: `{"status":"read",
 * "message_id":…}` answered `{"success":true}`), POST /{version}/{phone_number_id}/media
 * (multipart), GET /{version}/{media_id} + the download URL it returns, and
 * GET /{version}/{waba_id}/message_templates with cursor paging, and GET /{version}/{phone_number_id}
 * ?fields=… (a number registered with `addPhoneNumber`, read with its own token; a wrong token
 * answers Meta's 190, an unknown id Meta's 100/33). Every request is recorded with
 * its arrival time; answers can be scripted (429, 5xx, Graph error codes, delays). Templates are
 * created and deleted as Meta documents it (POST/DELETE /{version}/{waba_id}/message_templates:
 * ./graph-template-admin.ts).
 *
 * `postAccountChanges` posts the business account's own webhooks (template status, quality and
 * category; number quality and account events: ./account-webhooks.ts), signed the same way.
 *
 * With `statusWebhooks` set it also behaves like Meta after accepting a send: it POSTs a status
 * notification ("sent" by default) for the new wamid to the callback URL, signed
 * `X-Hub-Signature-256: sha256=HMAC_SHA256(app secret, raw body)`, echoing the send's
 * `biz_opaque_callback_data`, and retries a post that fails (no server, non-2xx) until it
 * succeeds, to whatever the callback URL is by then, like Meta's webhook retries.
 */
export type StatusWebhooks = {
  /** Callback URL (read at each attempt, so a restarted server can be pointed at). */
  url: string;
  appSecret: (phoneNumberId: string) => string;
  statuses?: string[];
  /** After the send's answer (default), or after its request arrived: `beforeAnswer`. */
  delayMs?: number;
  retryMs?: number;
  /**
   * Post the statuses `delayMs` after the send request arrived, even while its answer is still
   * delayed (setDelay): Meta's status webhooks often outrun its slow API answer. Each further
   * status of one send follows 100 ms after the previous one.
   */
  beforeAnswer?: boolean;
};
export type Recorded = { at: number; method: string; path: string; headers: http.IncomingHttpHeaders; body: any; raw: Buffer };
export type Scripted = { status: number; body?: unknown; delayMs?: number; headers?: Record<string, string> };

export function graphError(status: number, code: number, message: string, details = "", subcode?: number): Scripted {
  return {
    status,
    body: {
      error: {
        message,
        type: "OAuthException",
        code,
        ...(subcode ? { error_subcode: subcode } : {}),
        error_data: { messaging_product: "whatsapp", details },
        fbtrace_id: "AbCdEfGh123",
      },
    },
  };
}

/** A business phone number as GET /{phone-number-id} reads it, and the token it answers to. */
export type FakePhoneNumber = {
  token: string;
  /** Tokens Meta has seen and that have since expired: 190 with subcode 463, as Meta answers them. */
  expiredTokens?: string[];
  display_phone_number: string;
  verified_name: string;
  quality_rating?: string;
  messaging_limit_tier?: string;
};

export async function startFakeGraph(opts: { token?: string; version?: string } = {}) {
  const version = opts.version ?? "v21.0";
  const requests: Recorded[] = [];
  const script: Scripted[] = [];
  const media = new Map<string, { bytes: Buffer; mime: string }>();
  const templatePages: unknown[][] = [];
  const phoneNumbers = new Map<string, FakePhoneNumber>();
  const accountTemplates = new Map<string, AccountTemplates>();
  const templateWriteScript: Scripted[] = [];
  const templateWrites: TemplateWriteCall[] = [];
  let seq = 0;
  let defaultDelayMs = 0;
  let hooks: StatusWebhooks | null = null;
  let closed = false;
  const hookStats = { posted: 0, failedAttempts: 0, pending: 0 };
  const retryTimers = new Set<NodeJS.Timeout>();

  /** Meta's status notification (one status per post), as the Cloud API documents it. */
  function statusEnvelope(phoneNumberId: string, wamid: string, status: string, to: string, callbackData: unknown) {
    return {
      object: "whatsapp_business_account",
      entry: [
        {
          id: "WABA-FAKE",
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: { display_phone_number: "15550000000", phone_number_id: phoneNumberId },
                statuses: [
                  {
                    id: wamid,
                    status,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    recipient_id: to,
                    ...(typeof callbackData === "string" ? { biz_opaque_callback_data: callbackData } : {}),
                    ...(status === "sent"
                      ? {
                          conversation: { id: `conv-${wamid}`, origin: { type: "marketing" } },
                          pricing: { billable: true, pricing_model: "PMP", category: "marketing" },
                        }
                      : {}),
                  },
                ],
              },
            },
          ],
        },
      ],
    };
  }

  function postStatus(phoneNumberId: string, raw: string, extraDelayMs = 0) {
    hookStats.pending++;
    const attempt = async () => {
      if (closed || !hooks) return void hookStats.pending--;
      const cfg = hooks;
      try {
        const signature = createHmac("sha256", cfg.appSecret(phoneNumberId)).update(raw).digest("hex");
        const res = await fetch(cfg.url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${signature}` },
          body: raw,
          signal: AbortSignal.timeout(10_000),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) {
          hookStats.posted++;
          hookStats.pending--;
          return;
        }
      } catch {
        // No server there (yet): retried below.
      }
      hookStats.failedAttempts++;
      const t = setTimeout(() => {
        retryTimers.delete(t);
        void attempt();
      }, cfg.retryMs ?? 250);
      retryTimers.add(t);
    };
    const t = setTimeout(
      () => {
        retryTimers.delete(t);
        void attempt();
      },
      (hooks?.delayMs ?? 0) + extraDelayMs,
    );
    retryTimers.add(t);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(req.url ?? "/", "http://fake");
      let body: any = null;
      if ((req.headers["content-type"] ?? "").includes("application/json")) body = JSON.parse(raw.toString("utf8"));
      requests.push({ at: Date.now(), method: req.method ?? "", path: url.pathname, headers: req.headers, body, raw });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(payload));
      };
      if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`) {
        return send(401, graphError(401, 190, "Invalid OAuth access token - Cannot parse access token").body);
      }
      const parts = url.pathname.split("/").filter(Boolean);
      if (parts[0] === "download") {
        const m = media.get(parts[1]);
        if (!m) return send(404, {});
        res.writeHead(200, { "content-type": m.mime });
        return res.end(m.bytes);
      }
      if (parts[0] !== version) return send(404, graphError(404, 803, "Unknown path").body);
      const [, id, edge] = parts;
      if (req.method === "POST" && edge === "messages") {
        const next = script.shift();
        const delay = next?.delayMs ?? defaultDelayMs;
        const accepted = !(next && next.status !== 200) && body?.status !== "read";
        const wamid = accepted ? `wamid.FAKE${++seq}` : "";
        // Accepted: Meta reports the send's statuses whether or not the caller got the answer.
        const report = () =>
          (hooks?.statuses ?? ["sent"]).forEach((status, i) => {
            if (hooks)
              postStatus(
                id,
                JSON.stringify(statusEnvelope(id, wamid, status, String(body?.to ?? ""), body?.biz_opaque_callback_data)),
                i * 100,
              );
          });
        if (accepted && hooks?.beforeAnswer) report();
        if (delay) await realDelay(delay);
        if (next && next.status !== 200) return send(next.status, next.body, next.headers);
        if (body?.status === "read") return send(200, { success: true });
        send(200, {
          messaging_product: "whatsapp",
          contacts: [{ input: body?.to, wa_id: body?.to }],
          messages: [{ id: wamid, message_status: "accepted" }],
        });
        if (!hooks?.beforeAnswer) report();
        return;
      }
      if (req.method === "POST" && edge === "media") {
        const mediaId = `media${++seq}`;
        return send(200, { id: mediaId });
      }
      if ((req.method === "POST" || req.method === "DELETE") && edge === "message_templates") {
        const call = { method: req.method, wabaId: id, body, query: url.searchParams };
        templateWrites.push(call);
        const answer = answerTemplateWrite(accountTemplates, templateWriteScript, call);
        return send(answer.status, answer.body);
      }
      if (req.method === "GET" && edge === "message_templates" && accountTemplates.has(id)) {
        const answer = answerAccountTemplates(accountTemplates.get(id)!, {
          id,
          url,
          authorization: req.headers.authorization,
          base: base(),
        });
        return send(answer.status, answer.body);
      }
      if (req.method === "GET" && edge === "message_templates") {
        const page = Number(url.searchParams.get("after") ?? "0");
        const data = templatePages[page] ?? [];
        const next = page + 1 < templatePages.length ? `${base()}/${version}/${id}/message_templates?limit=2&after=${page + 1}` : undefined;
        return send(200, { data, paging: { cursors: { before: String(page), after: String(page + 1) }, ...(next ? { next } : {}) } });
      }
      if (req.method === "GET" && !edge && phoneNumbers.has(id)) {
        const phone = phoneNumbers.get(id)!;
        const bearer = (req.headers.authorization ?? "").replace(/^Bearer /, "");
        // Meta's words for the two ways a token fails (Graph API "Handling errors": code 190).
        if (phone.expiredTokens?.includes(bearer)) {
          return send(401, {
            error: {
              message: "Error validating access token: Session has expired on Tuesday, 01-Dec-26 10:00:00 PST.",
              type: "OAuthException",
              code: 190,
              error_subcode: 463,
              fbtrace_id: "AxYzFaKe463",
            },
          });
        }
        if (bearer !== phone.token) {
          return send(401, {
            error: {
              message: "Invalid OAuth access token - Cannot parse access token",
              type: "OAuthException",
              code: 190,
              fbtrace_id: "AxYzFaKe190",
            },
          });
        }
        // Only the fields asked for, and the id, as Graph answers a `fields=` read.
        const fields = (url.searchParams.get("fields") ?? "id").split(",").filter(Boolean);
        const { token: _t, expiredTokens: _e, ...known } = phone;
        const out: Record<string, unknown> = { id };
        for (const f of fields) if (f in known && known[f as keyof typeof known] !== undefined) out[f] = known[f as keyof typeof known];
        return send(200, out);
      }
      // An unknown id read with `fields=` (a number check): Meta's 400. Media reads keep their 404 below.
      if (req.method === "GET" && !edge && !media.has(id) && url.searchParams.has("fields")) {
        return send(400, {
          error: {
            message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
            type: "GraphMethodException",
            code: 100,
            error_subcode: 33,
            fbtrace_id: "AxYzFaKe100",
          },
        });
      }
      if (req.method === "GET" && !edge && media.has(id)) {
        const m = media.get(id)!;
        return send(200, {
          messaging_product: "whatsapp",
          url: `${base()}/download/${id}`,
          mime_type: m.mime,
          sha256: "abc",
          file_size: m.bytes.length,
          id,
        });
      }
      return send(404, graphError(404, 100, "Unsupported request").body);
    });
  });
  // Node closes an idle keep-alive socket after 5 s; on a loaded machine the client can pick that
  // socket just as it closes and see ECONNRESET. The client, not the server, ends idle sockets here.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base(),
    requests,
    sends: (phoneNumberId?: string) =>
      requests.filter(
        (r) =>
          r.method === "POST" &&
          r.path.endsWith("/messages") &&
          r.body?.status !== "read" &&
          (!phoneNumberId || r.path.includes(`/${phoneNumberId}/`)),
      ),
    /** Read receipts posted (POST /messages with status "read"). */
    reads: () => requests.filter((r) => r.method === "POST" && r.path.endsWith("/messages") && r.body?.status === "read"),
    /** Next answers of POST /messages, in order (then success again). */
    script: (...answers: Scripted[]) => script.push(...answers),
    setDelay: (ms: number) => (defaultDelayMs = ms),
    /** Post signed status webhooks after each accepted send (null: stop; pending posts are dropped). */
    statusWebhooks: (cfg: StatusWebhooks | null) => (hooks = cfg),
    /** Status posts answered 2xx, failed attempts (retried), and posts still waiting to land. */
    webhookStats: () => ({ ...hookStats }),
    addMedia: (id: string, bytes: Buffer, mime: string) => media.set(id, { bytes, mime }),
    /** A business number GET /{phone_number_id}?fields=… answers for, with the token it accepts. */
    addPhoneNumber: (phoneNumberId: string, phone: FakePhoneNumber) => phoneNumbers.set(phoneNumberId, phone),
    setTemplatePages: (pages: unknown[][]) => templatePages.splice(0, templatePages.length, ...pages),
    /**
     * One business account's template list, paged as Meta pages it (./graph.ts, "Business
     * accounts' template lists"); replaces what the account listed before.
     */
    setAccountTemplates: (wabaId: string, templates: unknown[], opts: Omit<AccountTemplates, "templates" | "calls"> = {}) =>
      accountTemplates.set(wabaId, { ...opts, templates, calls: accountTemplates.get(wabaId)?.calls ?? [] }),
    /** Creates and deletes of templates (./graph-template-admin.ts), in order. */
    templateWrites: () => [...templateWrites],
    /** The next answers of template creates and deletes, in order (then Meta's usual answers again). */
    scriptTemplateWrite: (...answers: Scripted[]) => templateWriteScript.push(...answers),
    /** The list requests of one business account, in order: their URL (query included) and token. */
    templateListCalls: (wabaId: string) => [...(accountTemplates.get(wabaId)?.calls ?? [])],
    /**
     * Posts a business account's template and number changes to `url` as Meta does, signed with
     * the app secret (builders in ./account-webhooks.ts); resolves to the answer.
     */
    postAccountChanges: (
      url: string,
      appSecret: string,
      wabaId: string,
      changes: AccountChange[],
      opts?: { time?: number; body?: unknown },
    ) => postAccountWebhook(url, appSecret, wabaId, changes, opts),
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        for (const t of retryTimers) clearTimeout(t);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
export type FakeGraph = Awaited<ReturnType<typeof startFakeGraph>>;

// ---------------------------------------------------------------------------------------------
// Business accounts' template lists: GET /{version}/{waba_id}/message_templates, per account.
// ---------------------------------------------------------------------------------------------

/**
 * What one business account lists. `token`: the only access token Meta accepts for it (another
 * answers Meta's 190, as an expired or revoked token does); `pageSize`: Meta's own cap on a page,
 * whatever `limit` asks (so a few templates span several pages); `failPage`: that page (0-based)
 * answers this error instead, as a Graph hiccup in the middle of a read.
 */
export type AccountTemplates = {
  templates: unknown[];
  token?: string;
  pageSize?: number;
  failPage?: { page: number; answer: Scripted };
  /** Every list request the account got, in order. */
  calls: { url: URL; authorization: string | undefined }[];
};

const cursorOf = (offset: number) => Buffer.from(`offset:${offset}`).toString("base64url");
const offsetOf = (cursor: string | null) => {
  const m = cursor ? /^offset:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8")) : null;
  return m ? Number(m[1]) : cursor ? NaN : 0;
};

/**
 * One page as Meta answers it: `data` (only the `fields` asked for, `id` always), and `paging`
 * with opaque `cursors.before`/`after` and, on every page but the last, `next`
 * (https://developers.facebook.com/docs/graph-api/results; going backwards is not needed here).
 * A cursor that is not one of ours answers Meta's 100 error.
 */
function answerAccountTemplates(
  account: AccountTemplates,
  req: { id: string; url: URL; authorization: string | undefined; base: string },
): { status: number; body: unknown } {
  account.calls.push({ url: req.url, authorization: req.authorization });
  if (account.token && req.authorization !== `Bearer ${account.token}`) {
    const e = graphError(401, 190, "Error validating access token: Session has expired on Tuesday, 01-Dec-26 10:00:00 PST.", "", 463);
    return { status: e.status, body: e.body };
  }
  const offset = offsetOf(req.url.searchParams.get("after"));
  if (!Number.isInteger(offset) || offset < 0) {
    const e = graphError(400, 100, "Invalid parameter", "after: not a valid cursor");
    return { status: e.status, body: e.body };
  }
  const size = Math.min(Number(req.url.searchParams.get("limit")) || 25, account.pageSize ?? 25);
  const page = Math.floor(offset / size);
  if (account.failPage && account.failPage.page === page)
    return { status: account.failPage.answer.status, body: account.failPage.answer.body };
  const fields = req.url.searchParams.get("fields")?.split(",");
  const pick = (t: unknown) =>
    fields && t && typeof t === "object" && !Array.isArray(t)
      ? Object.fromEntries(Object.entries(t).filter(([k]) => k === "id" || fields.includes(k)))
      : t;
  const data = account.templates.slice(offset, offset + size).map(pick);
  const link = (at: number) => {
    const u = new URL(`${req.base}${req.url.pathname}`);
    for (const [k, v] of req.url.searchParams) if (k !== "after") u.searchParams.set(k, v);
    u.searchParams.set("limit", String(size));
    u.searchParams.set("after", cursorOf(at));
    return u.toString();
  };
  const end = offset + data.length;
  return {
    status: 200,
    body: {
      data,
      paging: {
        cursors: { before: cursorOf(offset), after: cursorOf(end) },
        ...(end < account.templates.length ? { next: link(end) } : {}),
      },
    },
  };
}
