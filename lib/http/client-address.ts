import { isIP } from "node:net";
import { config } from "@/lib/config";

/**
 * The address a request came from, for per-address limits. Route handlers never see the socket:
 * `next start` writes the socket's address into `X-Forwarded-For` only when the request has no
 * such header (`??=`), and otherwise passes the client's header through untouched. Each trusted
 * reverse proxy appends the address it received the connection from. So, with `TRUST_PROXY=n`:
 *
 * - n ≥ 1: the n-th entry from the right is the address the outermost trusted proxy saw, the
 *   client's; anything left of it was written by the client and is ignored.
 * - n = 0 (default, no proxy): the rightmost entry, which is the socket's address as Next wrote
 *   it. A client connecting straight to `next start` can send its own header and pick that
 *   address: per-address budgets and sign-in delays are only as good as the proxy in front. The
 *   account's sign-in delay and the password-hash queue do not depend on it.
 *
 * IPv6 addresses count per /64 (one customer line holds a whole /64); IPv4-mapped IPv6 is IPv4.
 * A missing or unparsable value is "unknown" (one shared bucket).
 */
export function clientAddress(req: Request, hops = config.trustProxyHops): string {
  const entries = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0) return "unknown";
  const index = Math.max(0, entries.length - Math.max(1, hops));
  return normalizeAddress(entries[index]);
}

export function normalizeAddress(raw: string): string {
  let a = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracketed) a = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(":"));
  a = a.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) a = mapped[1];
  const kind = isIP(a);
  if (kind === 4) return a;
  if (kind === 6) return `${ipv6Prefix64(a)}::/64`;
  return "unknown";
}

/** The first four 16-bit groups of an IPv6 address, expanded (`2001:db8::1` → `2001:db8:0:0`). */
function ipv6Prefix64(a: string): string {
  const [head, tail = ""] = a.split("::");
  const left = head ? head.split(":") : [];
  const right = a.includes("::") && tail ? tail.split(":") : [];
  // A trailing dotted IPv4 part (`::ffff:0:1.2.3.4`) stands for two groups.
  const width = (gs: string[]) => gs.length + (gs.at(-1)?.includes(".") ? 1 : 0);
  const groups = [...left, ...Array(Math.max(0, 8 - width(left) - width(right))).fill("0"), ...right];
  return groups
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(":");
}
