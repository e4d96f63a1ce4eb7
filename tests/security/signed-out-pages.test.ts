import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { SESSION_COOKIE } from "@/lib/auth/authenticate";
import { DASHBOARD_PAGES, SESSION_COOKIE_NAME } from "@/lib/http/signed-out-pages";

/**
 * Signed out, a dashboard page is answered by proxy.ts with a redirect to the sign-in page, before
 * anything renders (lib/http/signed-out-pages.ts); e2e/thread-first-page.spec.ts shows it in the browser.
 */
const at = (p: string, cookie?: string) => proxy(new NextRequest(`http://localhost:3000${p}`, cookie ? { headers: { cookie } } : {}));

describe("signed-out pages (proxy.ts)", () => {
  it("sends a visitor without a session cookie from / to the sign-in page", () => {
    const res = at("/");
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("http://localhost:3000/login");
  });

  it.each(["/inbox?tab=me&c=4", "/history", "/broadcasts/7", "/contacts/import", "/saved-replies", "/conversations"])(
    "sends %s to sign in, and back there afterwards",
    (p) => {
      const res = at(p);
      expect(res.status).toBe(307);
      const to = new URL(res.headers.get("location")!);
      expect(to.pathname).toBe("/login");
      expect(to.searchParams.get("next")).toBe(p);
    },
  );

  it("lets a visitor with a session cookie through, and the public pages to anyone", () => {
    for (const p of ["/", "/inbox", "/history"]) expect(at(p, `${SESSION_COOKIE}=abc`).headers.get("x-middleware-next")).toBe("1");
    for (const p of ["/login", "/login?next=%2Finbox", "/docs", "/inboxes", "/sendx"])
      expect(at(p).headers.get("x-middleware-next")).toBe("1");
    // The API answers its own 401s (JSON), never a redirect.
    expect(at("/api/v1/conversations%zz").status).toBe(400);
  });

  it("knows the session cookie's name and every dashboard page", () => {
    expect(SESSION_COOKIE_NAME).toBe(SESSION_COOKIE);
    const dir = path.join(process.cwd(), "app", "(dashboard)");
    const folders = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `/${d.name}`);
    expect(folders.length).toBeGreaterThan(5);
    for (const f of folders) expect(DASHBOARD_PAGES).toContain(f);
  });
});
