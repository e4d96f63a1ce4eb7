import net from "node:net";

/**
 * Which addresses a bot's or campaign's webhook may reach (docs/operations.md, "Security"): only public unicast
 * ones. Everything a server's own network could answer on — loopback, private, link-local (the
 * 169.254.169.254 metadata service), shared, documentation, multicast and other reserved ranges, in
 * IPv4 and IPv6, including IPv4 written inside IPv6 (`::ffff:127.0.0.1`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) — is refused. Ranges from the IANA special-purpose address registries; matching is
 * Node's `net.BlockList`.
 */
export type AddressKind = "loopback" | "link-local" | "private" | "reserved";

const V4: [AddressKind, string, number][] = [
  ["reserved", "0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ["private", "10.0.0.0", 8],
  ["private", "100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["loopback", "127.0.0.0", 8],
  ["link-local", "169.254.0.0", 16], // cloud metadata services live here
  ["private", "172.16.0.0", 12],
  ["reserved", "192.0.0.0", 24],
  ["reserved", "192.0.2.0", 24],
  ["reserved", "192.88.99.0", 24],
  ["private", "192.168.0.0", 16],
  ["reserved", "198.18.0.0", 15],
  ["reserved", "198.51.100.0", 24],
  ["reserved", "203.0.113.0", 24],
  ["reserved", "224.0.0.0", 4], // multicast
  ["reserved", "240.0.0.0", 4], // reserved and broadcast
];

const V6: [AddressKind, string, number][] = [
  ["loopback", "::1", 128],
  ["reserved", "::", 96], // unspecified and the deprecated IPv4-compatible form
  ["private", "64:ff9b:1::", 48], // local-use NAT64
  ["reserved", "100::", 64],
  ["reserved", "2001::", 23],
  ["reserved", "2001:db8::", 32],
  ["reserved", "3fff::", 20],
  ["private", "fc00::", 7], // unique local
  ["link-local", "fe80::", 10],
  ["private", "fec0::", 10], // deprecated site-local
  ["reserved", "ff00::", 8], // multicast
];

const lists = new Map<AddressKind, net.BlockList>();
for (const kind of ["loopback", "link-local", "private", "reserved"] as const) lists.set(kind, new net.BlockList());

for (const [kind, v4, prefix] of V4) {
  const list = lists.get(kind)!;
  // `::ffff:a.b.c.d` is matched against these IPv4 rules by BlockList itself.
  list.addSubnet(v4, prefix, "ipv4");
  // The same IPv4 range reached through a NAT64 gateway or a 6to4 relay.
  list.addSubnet(`64:ff9b::${v4}`, 96 + prefix, "ipv6");
  const [a, b, c, d] = v4.split(".").map(Number);
  const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
  list.addSubnet(`2002:${hex(a, b)}:${hex(c, d)}::`, 16 + prefix, "ipv6");
}
for (const [kind, v6, prefix] of V6) lists.get(kind)!.addSubnet(v6, prefix, "ipv6");

/** The IPv6 space that is routed publicly: global unicast, plus IPv4 written as IPv6 (checked above). */
const publicV6 = new net.BlockList();
publicV6.addSubnet("2000::", 3, "ipv6");
publicV6.addSubnet("::ffff:0:0", 96, "ipv6");
publicV6.addSubnet("64:ff9b::", 96, "ipv6");

/** The kind of internal address `ip` is (an IP literal without brackets), or null for a public one. */
export function internalAddressKind(ip: string): AddressKind | null {
  const family = net.isIP(ip);
  if (!family) return "reserved";
  const type = family === 4 ? "ipv4" : "ipv6";
  for (const [kind, list] of lists) if (list.check(ip, type)) return kind;
  if (family === 6 && !publicV6.check(ip, "ipv6")) return "reserved";
  return null;
}

/** `localhost` and every name under it are the local host by definition (RFC 6761). */
export function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost");
}

/** The URL's host as an IP literal without brackets, or null when it is a name. */
export function ipLiteralOf(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return net.isIP(host) ? host : null;
}
