import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";

export const ROOT = path.resolve(import.meta.dirname, "..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export type Proc = { name: string; child: ChildProcess; url: string; stop: () => Promise<void>; log: () => string };

/** Starts a server process and waits until `readyPath` answers 2xx (or the process dies). */
export async function startProcess(
  name: string,
  args: string[],
  opts: { port: number; env: Record<string, string>; readyPath: string; timeoutMs?: number; cwd?: string },
): Promise<Proc> {
  const child = spawn(process.execPath, args, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env, PORT: String(opts.port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const url = `http://127.0.0.1:${opts.port}`;
  const stop = () => stopChild(child);
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output}`);
    }
    try {
      const res = await fetch(url + opts.readyPath, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} not ready after ${opts.timeoutMs ?? 90_000} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { name, child, url, stop, log: () => output };
}

export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

function readStatus(pid: number): { rss: number; hwm: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
    return { rss: kb("VmRSS") * 1024, hwm: kb("VmHWM") * 1024 };
  } catch {
    return null;
  }
}

/** The pid and every live descendant (Next or the cluster may run more than one process). */
export function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = parents.get(ppid) ?? [];
      list.push(Number(entry));
      parents.set(ppid, list);
    } catch {}
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const c of parents.get(pid) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/**
 * CPU time (ms) one process has used: utime + stime (fields 14 and 15 of /proc/<pid>/stat, clock
 * ticks of 10 ms), plus with `reaped` cutime + cstime (16 and 17: its children already reaped).
 * 0 for a process that ended meanwhile.
 */
export function processCpuMs(pid: number, reaped = false): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .map(Number);
    return (f[11] + f[12] + (reaped ? f[13] + f[14] : 0)) * 10;
  } catch {
    return 0;
  }
}

/** CPU time (user + system, ms) used so far by a process tree: the server's own cost of a load. */
export function cpuMs(rootPid: number): number {
  return processTree(rootPid).reduce((ms, pid) => ms + processCpuMs(pid), 0);
}

/**
 * Samples the resident memory of a process tree every 200 ms: the peak of any one process (the
 * issue's per-process target) and the peak of the tree's sum, while a scenario runs.
 */
export function memorySampler(rootPid: number) {
  let peakProcess = 0;
  let peakTotal = 0;
  let pids = processTree(rootPid);
  let ticks = 0;
  const sample = () => {
    if (++ticks % 10 === 0) pids = processTree(rootPid);
    let total = 0;
    for (const pid of pids) {
      const s = readStatus(pid);
      if (!s) continue;
      total += s.rss;
      peakProcess = Math.max(peakProcess, s.rss);
    }
    peakTotal = Math.max(peakTotal, total);
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const hwm = Math.max(0, ...pids.map((p) => readStatus(p)?.hwm ?? 0));
      return { peakProcessRss: peakProcess, peakTreeRss: peakTotal, lifetimeHwm: hwm, processes: pids.length };
    },
  };
}

/**
 * CPU time (ms) of a whole server that forks a process per connection (a PostgreSQL postmaster):
 * its own, its live children's, and that of the children it has already reaped (cutime/cstime of
 * the root), so backends that came and went during a load are counted too.
 */
export function serverCpuMs(rootPid: number): number {
  return processTree(rootPid).reduce((ms, pid) => ms + processCpuMs(pid, pid === rootPid), 0);
}

/** WEBHOOK_FAST_LANE of the bench's servers: on unless BENCH_WEBHOOK_FAST_LANE=0 (scenario 13 says which). */
export const benchWebhookFastLane = (): "0" | "1" => (process.env.BENCH_WEBHOOK_FAST_LANE === "0" ? "0" : "1");
