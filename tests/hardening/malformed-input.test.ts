import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { createTeam } from "../helpers/factories";
import { ruledBodyProblem } from "../helpers/hardening-routes";
import { pdfBytes } from "../fixtures/media-bytes";
import { getDb } from "@/db/client";
import { media } from "@/db/schema";
import { MALFORMED_URL } from "@/lib/http/malformed-path";
import { BAD_FILENAME } from "@/lib/media/upload-form";

/**
 * Malformed percent-encoding in a dynamic segment, a malformed
 * session cookie and a NUL in an upload's file name used to answer 500. They answer a documented
 * 4xx with the ruled JSON body. (`next start` itself answers a bare 500 for a malformed segment
 * before any handler runs; proxy.ts answers first there, and the test server runs proxy.ts too.)
 */
let server: TestServer;
let team: Awaited<ReturnType<typeof createTeam>>;
beforeAll(async () => {
  server = await startServer();
  team = await createTeam();
});
afterAll(() => server.close());

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: BodyInit) {
  const res = await fetch(server.url + path, { method, headers, body });
  const text = await res.text();
  return { status: res.status, text, contentType: res.headers.get("content-type") };
}

describe("malformed percent-encoding in a path", () => {
  const cases: [string, string][] = [
    ["GET", "/api/v1/updates/%ZZ"],
    ["GET", "/api/v1/updates/%ZZ/media"],
    ["GET", "/api/v1/updates/%E0%A4%A"],
    ["POST", "/api/v1/contacts/%/labels"],
    ["PUT", "/api/v1/contacts/%zz/labels"],
    ["PATCH", "/api/v1/contacts/labels/%"],
    ["DELETE", "/api/v1/contacts/labels/%C3"],
    ["GET", "/api/v1/media/%"],
    ["GET", "/api/v1/media/uploads/team1/%zz.pdf"],
    ["GET", "/api/v1/messages/%ZZ/history"],
  ];
  it.each(cases)("%s %s answers 400 with the ruled JSON body, with or without a token", async (method, path) => {
    for (const headers of [{ authorization: `Bearer ${team.token}` }, {}, { cookie: "wa_session=%zz" }] as Record<string, string>[]) {
      const res = await call(method, path, headers);
      expect(res.status, `${method} ${path} ${JSON.stringify(headers)}: ${res.text}`).toBe(400);
      expect(res.contentType).toMatch(/^application\/json/);
      expect(JSON.parse(res.text)).toEqual({ message: MALFORMED_URL });
      expect(ruledBodyProblem(res.status, res.text)).toBeNull();
    }
  });

  it("well-formed encodings still reach the handlers", async () => {
    const auth = { authorization: `Bearer ${team.token}` };
    expect((await call("GET", "/api/v1/updates/%41bc", auth)).status).toBe(404);
    expect((await call("GET", "/api/v1/media/uploads/%C3%A9.pdf", auth)).status).toBe(404);
    // A malformed query value is the route's business (it is not a path segment).
    expect((await call("GET", "/api/v1/contacts?search=%zz", auth)).status).toBe(200);
  });
});

describe("a malformed session cookie is no session", () => {
  const cookies = ["wa_session=%zz", "wa_session=%", "wa_session=%E0%A4%A", "wa_session=%ED%A0%80", "a=1; wa_session=%C3; b=2"];
  it.each(cookies)("%s answers 401 Unauthenticated on the API", async (cookie) => {
    for (const path of ["/api/v1/auth/me", "/api/v1/contacts", "/api/v1/wa_numbers"]) {
      const res = await call("GET", path, { cookie });
      expect(res.status, `${path}: ${res.text}`).toBe(401);
      expect(JSON.parse(res.text)).toEqual({ message: "Unauthenticated." });
    }
    const write = await call("POST", "/api/v1/auth/logout", { cookie });
    expect(write.status).toBe(401);
  });
});

describe("upload file names", () => {
  const boundary = "----nul-name";
  const multipart = (filename: Buffer, bytes: Uint8Array) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`),
      filename,
      Buffer.from(`"\r\nContent-Type: application/pdf\r\n\r\n`),
      Buffer.from(bytes),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);

  it("a NUL in the file name is refused with 422 and nothing is stored", async () => {
    const db = await getDb();
    const before = await db.select({ id: media.id }).from(media).where(eq(media.teamId, team.id));
    for (const name of [Buffer.from("factura\u0000.pdf"), Buffer.from("a\u0000b"), Buffer.from("\u0000")]) {
      const res = await call(
        "POST",
        "/api/v1/media-upload",
        { authorization: `Bearer ${team.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
        multipart(name, pdfBytes(64 * 1024)),
      );
      expect(res.status, res.text).toBe(422);
      expect(JSON.parse(res.text)).toEqual({ message: BAD_FILENAME, errors: { file: [BAD_FILENAME] } });
    }
    expect(await db.select({ id: media.id }).from(media).where(eq(media.teamId, team.id))).toEqual(before);
  });

  it("a name with bytes that are not UTF-8 (a CESU-8 lone surrogate) is stored with U+FFFD", async () => {
    const res = await call(
      "POST",
      "/api/v1/media-upload",
      { authorization: `Bearer ${team.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      multipart(Buffer.concat([Buffer.from("f"), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(".pdf")]), pdfBytes(1024)),
    );
    expect(res.status, res.text).toBe(200);
    const db = await getDb();
    const [row] = await db
      .select({ name: media.originalName })
      .from(media)
      .where(eq(media.path, JSON.parse(res.text).data.media_path));
    expect(row.name).toMatch(/^f\uFFFD+\.pdf$/);
  });
});
