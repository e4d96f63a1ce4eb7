import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { createTeam } from "../helpers/factories";
import { uploadFor } from "../helpers/send-factories";
import { jpegBytes, mp4Bytes, pdfBytes, pngBytes } from "../fixtures/media-bytes";
import { mediaSecurityHeaders, pageContentSecurityPolicy } from "@/lib/http/security-headers";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("GET /api/v1/media/{media_path}: a download never runs as a page of our origin", () => {
  it.each<[string, Uint8Array, string, string]>([
    ["PDF", pdfBytes(), "factura.pdf", "sandbox"],
    ["PNG", pngBytes(), "logo.png", "sandbox"],
    ["JPEG", jpegBytes(), "foto.jpg", "sandbox"],
    // Chromium's player page fetches from its own origin: an opaque one could not play the file.
    ["MP4", mp4Bytes(), "clip.mp4", "sandbox allow-same-origin"],
  ])("a %s is sandboxed, never sniffed, and still shown inline", async (_kind, bytes, filename, policy) => {
    const team = await createTeam();
    const up = await uploadFor(team.id, bytes, filename);
    const url = `${server.url}/api/v1/media/${up.media_path}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${team.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe(policy);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toMatch(/^inline;/);
    // A revalidation answers with the same protection.
    const again = await fetch(url, { headers: { authorization: `Bearer ${team.token}`, "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-security-policy")).toBe(policy);
    expect(again.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("JSON answers of the API carry no page policy: the API's own, which lets a JSON body load nothing", async () => {
    const team = await createTeam();
    const res = await fetch(`${server.url}/api/v1/wa_numbers`, { headers: { authorization: `Bearer ${team.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
  });
});

describe("security header builders", () => {
  it("media: scripts never allowed; only audio and video keep their origin", () => {
    for (const type of ["application/pdf", "image/png", "image/svg+xml", "text/html", "application/octet-stream", ""]) {
      expect(mediaSecurityHeaders(type)).toEqual({ "content-security-policy": "sandbox", "x-content-type-options": "nosniff" });
    }
    for (const type of ["video/mp4", "audio/ogg; codecs=opus", "AUDIO/MPEG"]) {
      expect(mediaSecurityHeaders(type)["content-security-policy"]).toBe("sandbox allow-same-origin");
    }
  });

  it("pages: nonce scripts only, no plugins, no base, no framing", () => {
    const csp = pageContentSecurityPolicy("abc123==");
    const directives = Object.fromEntries(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));
    expect(directives["script-src"]).toBe("'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(directives["object-src"]).toBe("'none'");
    expect(directives["base-uri"]).toBe("'self'");
    expect(directives["frame-ancestors"]).toBe("'none'");
    expect(directives["style-src"]).toBe("'self' 'nonce-abc123=='");
    // Only style attributes are inline-allowed (server-rendered React `style`), never scripts or <style>.
    expect(csp.match(/'unsafe-inline'/g)).toHaveLength(1);
    expect(directives["style-src-attr"]).toBe("'unsafe-inline'");
    expect(csp).not.toContain("unsafe-eval");
    // `next dev` only: React's eval-based overlays and Next's dev-tools <style> elements.
    const dev = pageContentSecurityPolicy("n", { dev: true });
    expect(dev).toContain("script-src 'self' 'nonce-n' 'strict-dynamic' 'unsafe-eval'");
    expect(dev).toContain("style-src 'self' 'unsafe-inline'");
  });
});
