import net from "node:net";

export type RawAnswer = { status: number; headers: Record<string, string>; body: string; raw: string };

/**
 * Writes `head` (a request line and headers, without the blank line) on a fresh socket to the
 * server at `baseUrl`, with `Connection: close`, and reads the answer until the server closes:
 * what fetch cannot send (TRACE, TRACK, CONNECT, a target in proxy form). Rejects when the
 * server closes without answering, or has not answered within `timeoutMs`.
 */
export function rawRequest(baseUrl: string, head: string, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms to ${head.split("\r\n")[0]}`)));
    socket.on("data", (d: Buffer) => chunks.push(d));
    socket.on("error", reject);
    socket.on("close", () => {
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf("\r\n\r\n");
      if (end === -1) return reject(new Error(`closed without an answer to ${head.split("\r\n")[0]}: ${JSON.stringify(bytes.toString())}`));
      const [statusLine, ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body: Buffer = bytes.subarray(end + 4);
      if (headers["transfer-encoding"] === "chunked") body = unchunk(body);
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: body.toString("utf8"), raw: bytes.toString("utf8") });
    });
    socket.write(`${head}\r\nConnection: close\r\n\r\n`);
  });
}

function unchunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf("\r\n", at);
    if (eol === -1) break;
    const size = parseInt(bytes.subarray(at, eol).toString("latin1"), 16);
    if (!size) break;
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
