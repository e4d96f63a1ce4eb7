import net from "node:net";

export type EndlessUpload = {
  /** The answer's status (0 when none came). */
  status: number;
  /** The answer as received (head and body), the first 4 KB. */
  answer: string;
  /** Milliseconds from the request's start to the answer's first byte (null: no answer). */
  answeredMs: number | null;
  /** Milliseconds from the answer (or the start, without one) until the server closed the connection (null: still open at `giveUpMs`). */
  closedAfterAnswerMs: number | null;
  /** Body bytes the client managed to write before the connection closed. */
  bytesWritten: number;
};

/**
 * One request with a chunked body that never ends, written as fast as the connection takes it,
 * on a raw socket (fetch cannot keep writing after its answer came). With `declaredLength`, the
 * body is declared with that Content-Length instead (and written unframed, just as endlessly).
 * Resolves when the server closes the connection, or after `giveUpMs` (then
 * `closedAfterAnswerMs` is null).
 */
export function endlessUpload(
  url: string,
  {
    method = "POST",
    path,
    headers = {},
    declaredLength,
    giveUpMs = 10_000,
  }: { method?: string; path: string; headers?: Record<string, string>; declaredLength?: number; giveUpMs?: number },
): Promise<EndlessUpload> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = "";
    let answeredAt: number | null = null;
    let bytesWritten = 0;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      socket.destroy();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({
        status,
        answer: answer.slice(0, 4096),
        answeredMs: answeredAt === null ? null : answeredAt - started,
        closedAfterAnswerMs: closed ? Date.now() - (answeredAt ?? started) : null,
        bytesWritten,
      });
    };
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    socket.on("data", (d) => {
      answeredAt ??= Date.now();
      if (answer.length < 4096) answer += d.toString("latin1");
    });
    // EPIPE or ECONNRESET while writing: the server closed the connection.
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
    const chunk = Buffer.alloc(64 * 1024, "x");
    const frame =
      declaredLength === undefined ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]) : chunk;
    const framing = declaredLength === undefined ? "transfer-encoding: chunked" : `content-length: ${declaredLength}`;
    const head = Object.entries({ host: `${hostname}:${port}`, "content-type": "application/json", ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    socket.write(`${method} ${path} HTTP/1.1\r\n${head}${framing}\r\n\r\n`);
    const pump = () => {
      while (!done && !socket.destroyed) {
        bytesWritten += chunk.length;
        if (!socket.write(frame)) return void socket.once("drain", pump);
      }
    };
    pump();
  });
}

/** CPU seconds (user + system) `pid` has used so far, from /proc (Linux). */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces, inside parentheses): utime is the 14th
  // field of the line, stime the 15th, in clock ticks (100 a second on Linux).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds `pid` uses over the next `windowMs` (a measurement window, not a wait for a state). */
export async function cpuSecondsOver(pid: number, windowMs: number): Promise<number> {
  const before = await cpuSecondsOf(pid);
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  return (await cpuSecondsOf(pid)) - before;
}
