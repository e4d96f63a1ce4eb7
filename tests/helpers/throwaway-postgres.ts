import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/bench/processes";

/**
 * A PostgreSQL 15 server of a test's own (initdb in a temporary folder, PG_BIN as
 * scripts/pg-cluster.sh), for tests that stop or cut off the database, which the suite's shared
 * server or PGlite cannot be. As root the server runs as the postgres user, as there.
 */
export async function startThrowawayPostgres(): Promise<{ url: string; stop: () => void }> {
  const bin = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "throwaway-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : cmd, asRoot ? ["-u", "postgres", "--", cmd, ...args] : args, { stdio: "ignore" });
  if (asRoot) execFileSync("chown", ["postgres:", dir]);
  fs.chmodSync(dir, 0o700);
  const port = await freePort();
  run(path.join(bin, "initdb"), ["-D", path.join(dir, "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
  fs.appendFileSync(
    path.join(dir, "data", "postgresql.conf"),
    `port = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nfsync = off\n`,
  );
  const pgCtl = path.join(bin, "pg_ctl");
  run(pgCtl, ["-D", path.join(dir, "data"), "-l", path.join(dir, "server.log"), "-w", "start"]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run(pgCtl, ["-D", path.join(dir, "data"), "-m", "immediate", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A TCP proxy in front of `target` (host:port), standing for a pooler the test can kill:
 * `refuse()` closes its port and cuts every connection (a pooler that died: connects are
 * refused), `blackHole()` cuts every connection and takes new ones without ever answering (a
 * host that vanished: connects time out), `restore()` forwards again.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let mode: "forward" | "blackHole" = "forward";
  const cutAll = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  const onConnection = (client: net.Socket) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => {});
    if (mode === "blackHole") return;
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on("close", () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  };
  let server: net.Server | null = null;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer(onConnection);
      server.listen(port, "127.0.0.1", resolve);
    });
  const unlisten = () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await listen();
  return {
    port,
    async refuse() {
      const closed = unlisten();
      cutAll();
      await closed;
      server = null;
    },
    async blackHole() {
      mode = "blackHole";
      cutAll();
      if (!server) await listen();
    },
    async restore() {
      mode = "forward";
      if (!server) await listen();
    },
    async close() {
      const closed = unlisten();
      cutAll();
      await closed;
    },
  };
}
