import http from "node:http";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES, MULTIPART_OVERHEAD_BYTES } from "@/lib/media/types";
import { MAX_WEBHOOK_BYTES } from "@/lib/meta-webhooks/whatsapp-service";
import { startServer, type TestServer } from "../helpers/server";
import { createWorld, teamDigest, type World } from "../helpers/hardening-world";
import { ENDPOINTS } from "../helpers/hardening-routes";

let server: TestServer;
let w: World;
beforeAll(async () => {
  server = await startServer();
  w = await createWorld();
});
afterAll(() => server.close());

const TOO_LARGE = { message: "El cuerpo de la solicitud es demasiado grande." };

/** A valid body grown past `bytes` with a long string in one of its own fields. */
function oversized(valid: Record<string, unknown>, bytes: number): string {
  const base = JSON.stringify(valid);
  return JSON.stringify({ ...valid, padding: "x".repeat(bytes - base.length + 16) });
}

/** The same bytes sent chunked, without Content-Length, so only the byte count can stop them. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 64 * 1024));
      at += 64 * 1024;
    },
  });
}

/**
 * One request on its own connection: the server answers 413 without reading the rest of the body,
 * which leaves a kept-alive connection unusable for the next request.
 */
async function post(path: string, method: string, body: string | ReadableStream<Uint8Array>, headers: Record<string, string>) {
  const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(server.url + path, { method, headers, agent: false }, (r) => {
      let text = "";
      r.setEncoding("utf8");
      r.on("data", (c) => (text += c));
      r.on("end", () => resolve({ status: r.statusCode ?? 0, text }));
    });
    // The server may close while the rest of the body is still being written.
    req.on("error", reject);
    if (typeof body === "string") req.end(body);
    else
      Readable.fromWeb(body as never)
        .on("error", () => {})
        .pipe(req)
        .on("error", () => {});
  });
  let parsed: any = null;
  try {
    parsed = JSON.parse(res.text);
  } catch {}
  return { status: res.status, body: parsed };
}

const bodyRoutes = ENDPOINTS.filter((e) => e.input === "json");

describe("body size limits on every route that reads a body", () => {
  it("covers every JSON route of the endpoint table", () => {
    expect(bodyRoutes.every((e) => e.maxBytes! > 0)).toBe(true);
    expect(bodyRoutes.map((e) => e.name)).toEqual(
      expect.arrayContaining([
        "send",
        "send bulk",
        "label create",
        "label update",
        "contact labels add",
        "contact labels remove",
        "sandbox inbound",
        "login",
      ]),
    );
  });

  it.each(bodyRoutes.map((e) => [e.name, e] as const))(
    "%s: 413 past its limit, by Content-Length and by bytes, writing nothing",
    async (_n, ep) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (ep.auth === "token") headers.authorization = `Bearer ${w.token}`;
      const before = await teamDigest(w.team.id);
      const text = oversized(ep.valid!(w), ep.maxBytes! + 1);
      const declared = await post(ep.path(w), ep.method, text, headers);
      expect(declared).toEqual({ status: 413, body: TOO_LARGE });
      const streamed = await post(ep.path(w), ep.method, chunked(text), headers);
      expect(streamed).toEqual({ status: 413, body: TOO_LARGE });
      expect(await teamDigest(w.team.id)).toBe(before);
    },
  );

  it("bulk send accepts a body near its 2 MB limit", async () => {
    const ep = ENDPOINTS.find((e) => e.name === "send bulk")!;
    const valid = ep.valid!(w) as { recipients: Record<string, unknown>[] };
    const recipients = Array.from({ length: 1000 }, (_, i) => ({
      ...valid.recipients[0],
      destination: `5731${String(i).padStart(8, "0")}`,
      body_params: [
        { key: "1", value: "v".repeat(900) },
        { key: "2", value: "w".repeat(900) },
      ],
    }));
    const text = JSON.stringify({ ...valid, recipients });
    expect(text.length).toBeGreaterThan(1.5 * 1024 * 1024);
    const res = await post(ep.path(w), "POST", text, { "content-type": "application/json", authorization: `Bearer ${w.token}` });
    expect(res.status).toBe(200);
    expect(res.body.data.accepted).toBe(1000);
  });

  it("media upload: 413 past the largest file plus the form overhead", async () => {
    const before = await teamDigest(w.team.id);
    const size = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES + 1;
    const res = await post("/api/v1/media-upload", "POST", chunked("%PDF-".padEnd(size, "x")), {
      "content-type": "multipart/form-data; boundary=x",
      authorization: `Bearer ${w.token}`,
    });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(TOO_LARGE.message);
    expect(await teamDigest(w.team.id)).toBe(before);
  });

  it("signed webhook: 413 past its limit, before the signature is checked", async () => {
    const res = await post("/api/v1/webhooks/whatsapp", "POST", chunked("x".repeat(MAX_WEBHOOK_BYTES + 1)), {
      "content-type": "application/json",
      "x-hub-signature-256": "sha256=00",
    });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(TOO_LARGE.message);
  });
});
