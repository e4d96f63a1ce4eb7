import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the Graph API (test-only), speaking the documented Cloud API shapes:
 * POST /{version}/{phone_number_id}/messages (sends, and read receipts: `{"status":"read",
 * "message_id":…}` answered `{"success":true}`), POST /{version}/{phone_number_id}/media
 * (multipart), GET /{version}/{media_id} + the download URL it returns, and
 * GET /{version}/{waba_id}/message_templates with cursor paging. Every request is recorded with
 * its arrival time; answers can be scripted (429, 5xx, Graph error codes, delays).
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

export async function startFakeGraph(opts: { token?: string; version?: string } = {}) {
  const version = opts.version ?? "v21.0";
  const requests: Recorded[] = [];
  const script: Scripted[] = [];
  const media = new Map<string, { bytes: Buffer; mime: string }>();
  const templatePages: unknown[][] = [];
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
        if (delay) await new Promise((r) => setTimeout(r, delay));
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
      if (req.method === "GET" && edge === "message_templates") {
        const page = Number(url.searchParams.get("after") ?? "0");
        const data = templatePages[page] ?? [];
        const next = page + 1 < templatePages.length ? `${base()}/${version}/${id}/message_templates?limit=2&after=${page + 1}` : undefined;
        return send(200, { data, paging: { cursors: { before: String(page), after: String(page + 1) }, ...(next ? { next } : {}) } });
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
    setTemplatePages: (pages: unknown[][]) => templatePages.splice(0, templatePages.length, ...pages),
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
