import { describe, expect, it } from "vitest";
import { postLoginPath, sameOriginPath } from "@/lib/http/safe-redirect";
import { safeUrl } from "@/components/messages/safe-url";
import { HOSTILE_NEXT } from "../../e2e/hostile-next";

const ORIGIN = "http://localhost:3000";

describe("postLoginPath (the sign-in page's `next`)", () => {
  it.each([
    ["/\\evil.example/x", "a backslash the browser reads as a slash"],
    ["/\t/evil.example", "a tab the URL parser drops"],
    ["/\n/evil.example", "a newline the URL parser drops"],
    ["//evil.example/x", "protocol-relative"],
    ["/\\/evil.example", "slash, backslash, slash"],
    ["https://evil.example/x", "absolute"],
    ["javascript:alert(1)", "script URL"],
    ["send", "not a path"],
    ["", "empty"],
  ])("refuses %j (%s): the landing page instead", (next) => {
    // What the login form gets from `new URLSearchParams(location.search).get("next")`.
    const decoded = new URLSearchParams(`next=${encodeURIComponent(next)}`).get("next");
    expect(postLoginPath(decoded, ORIGIN)).toBe("/inbox");
  });

  it("refuses the findings' exact query strings", () => {
    for (const search of ["?next=/%5Cevil.example/x", "?next=/%09/evil.example"]) {
      expect(postLoginPath(new URLSearchParams(search).get("next"), ORIGIN)).toBe("/inbox");
    }
  });

  it.each(HOSTILE_NEXT)("refuses the hostile table's ?next=%s (round 2: checked after every normalisation)", (raw) => {
    const next = new URLSearchParams(`next=${raw}`).get("next");
    expect(postLoginPath(next, ORIGIN)).toBe("/inbox");
  });

  it("what it answers for any value resolves to our origin, and to itself", () => {
    for (const raw of HOSTILE_NEXT.concat(["/a/./b", "/a/../b?x=%2F%2F", "/x#//evil.example"])) {
      const path = postLoginPath(new URLSearchParams(`next=${raw}`).get("next"), ORIGIN);
      const url = new URL(path, ORIGIN);
      expect(url.origin).toBe(ORIGIN);
      expect(url.pathname + url.search + url.hash).toBe(path);
      expect(path.startsWith("//")).toBe(false);
    }
  });

  it("keeps a same-origin path with its query and fragment, normalised", () => {
    expect(postLoginPath("/conversations?wa_number=573001234567&customer=57300", ORIGIN)).toBe(
      "/conversations?wa_number=573001234567&customer=57300",
    );
    expect(postLoginPath("/labels#top", ORIGIN)).toBe("/labels#top");
    expect(postLoginPath("/contacts/../labels", ORIGIN)).toBe("/labels");
  });

  it("never sends the agent back to the sign-in page, and copes with a missing value", () => {
    expect(postLoginPath("/login", ORIGIN)).toBe("/inbox");
    expect(postLoginPath("/login?next=/labels", ORIGIN)).toBe("/inbox");
    expect(postLoginPath(null, ORIGIN)).toBe("/inbox");
    expect(postLoginPath(undefined, ORIGIN)).toBe("/inbox");
    expect(postLoginPath("/loginx", ORIGIN)).toBe("/loginx");
  });
});

describe("sameOriginPath", () => {
  it("answers what the browser would load, only when it stays on the origin", () => {
    expect(sameOriginPath("/a/b?c=1", ORIGIN)).toBe("/a/b?c=1");
    expect(sameOriginPath("/a b", ORIGIN)).toBe("/a%20b");
    expect(sameOriginPath("/\\evil.example/x", ORIGIN)).toBeNull();
    expect(sameOriginPath("/a", "not an origin")).toBeNull();
    expect(sameOriginPath(42, ORIGIN)).toBeNull();
    expect(sameOriginPath("/.//evil.example", ORIGIN)).toBeNull();
    expect(sameOriginPath("/./%5Cevil.example", ORIGIN)).toBeNull();
    // A stored name with a broken UTF-8 escape is still a path of ours (it is not decoded whole).
    expect(sameOriginPath("/api/v1/media/uploads/team1/factura%E0%A4%A.pdf", ORIGIN)).toBe(
      "/api/v1/media/uploads/team1/factura%E0%A4%A.pdf",
    );
    expect(sameOriginPath("/a/%E0%A4%A/%5Cevil.example", ORIGIN)).toBeNull();
    // A query or fragment may hold slashes: only the path can become a host.
    expect(sameOriginPath("/a?next=//b#//c", ORIGIN)).toBe("/a?next=//b#//c");
  });
});

describe("safeUrl (payload URLs that become links or media sources)", () => {
  it.each(["/\\evil.example/x", "/\t/evil.example", "//evil.example/x", "/\\/evil.example", "  /\\evil.example/x  "])(
    "refuses %j, which the browser loads from another site",
    (v) => {
      expect(safeUrl(v)).toBeNull();
    },
  );

  it.each([
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>1</script>",
    "vbscript:x",
    "\\\\evil.example/x",
    "evil.example/x",
    5,
    null,
    {},
  ])("refuses %j", (v) => {
    expect(safeUrl(v)).toBeNull();
  });

  it("keeps http(s) absolute URLs and same-origin paths", () => {
    expect(safeUrl("https://tienda.example.com/navidad")).toBe("https://tienda.example.com/navidad");
    expect(safeUrl("http://localhost:3000/api/v1/media/uploads/team1/a.png")).toBe(
      "http://localhost:3000/api/v1/media/uploads/team1/a.png",
    );
    expect(safeUrl("/api/v1/media/uploads/team1/a.png")).toBe("/api/v1/media/uploads/team1/a.png");
    expect(safeUrl(" /labels?x=1#y ")).toBe("/labels?x=1#y");
  });
});
