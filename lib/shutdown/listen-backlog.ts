import fs from "node:fs";

/**
 * How many connections wait in the kernel's accept queue of the sockets listening on `port`, or
 * null where this cannot be read (not Linux). In /proc/net/tcp and tcp6, a socket in state 0A
 * (LISTEN) shows that count as its rx_queue (what `ss -ltn` prints as Recv-Q).
 *
 * Why it matters: the handshake of those connections is done, so their clients have written
 * their requests; closing the listening socket resets every one of them. And a busy Node server
 * accepts slowly: with each request holding the event loop for tens of milliseconds (PGlite runs
 * its queries on it), libuv was measured accepting one or two connections a second while 19 waited.
 */
export function listenBacklog(port: number): number | null {
  let found = false;
  let waiting = 0;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      // A path of the kernel's, never of the project: keeps Turbopack from tracing the whole tree.
      text = fs.readFileSync(/*turbopackIgnore: true*/ file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue …
      const fields = line.trim().split(/\s+/);
      if (fields.length < 5 || fields[3] !== "0A") continue;
      if (parseInt(fields[1].split(":")[1], 16) !== port) continue;
      found = true;
      waiting += parseInt(fields[4].split(":")[1], 16);
    }
  }
  return found ? waiting : null;
}
