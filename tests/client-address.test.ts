import { describe, expect, it } from "vitest";
import { clientAddress, normalizeAddress } from "@/lib/http/client-address";

const req = (xff?: string) =>
  new Request("http://app.test/api/v1/auth/login", { headers: xff === undefined ? {} : { "x-forwarded-for": xff } });

describe("clientAddress (TRUST_PROXY hops)", () => {
  it("takes the rightmost entry with no proxy (Next's socket address) or one proxy, the n-th from the right with n", () => {
    expect(clientAddress(req("203.0.113.9"), 0)).toBe("203.0.113.9");
    expect(clientAddress(req("1.1.1.1, 203.0.113.9"), 0)).toBe("203.0.113.9");
    expect(clientAddress(req("1.1.1.1, 203.0.113.9"), 1)).toBe("203.0.113.9");
    // client-written, client (seen by the outer proxy), outer proxy (seen by the inner one)
    expect(clientAddress(req("1.1.1.1, 203.0.113.9, 10.0.0.2"), 2)).toBe("203.0.113.9");
    // Fewer entries than proxies: the leftmost is the best there is.
    expect(clientAddress(req("203.0.113.9"), 3)).toBe("203.0.113.9");
  });

  it("is 'unknown' without a usable header", () => {
    expect(clientAddress(req(), 0)).toBe("unknown");
    expect(clientAddress(req(" , "), 1)).toBe("unknown");
    expect(clientAddress(req("not-an-address"), 1)).toBe("unknown");
  });

  it("normalizes ports, brackets, zones and IPv4-mapped IPv6; IPv6 counts per /64", () => {
    expect(normalizeAddress("203.0.113.9:4711")).toBe("203.0.113.9");
    expect(normalizeAddress("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(normalizeAddress("[2001:db8:1:2:3:4:5:6]:443")).toBe("2001:db8:1:2::/64");
    expect(normalizeAddress("2001:DB8:1:2::99")).toBe("2001:db8:1:2::/64");
    expect(normalizeAddress("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(normalizeAddress("::1")).toBe("0:0:0:0::/64");
  });
});
