import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT } from "./processes";

const SOURCES = [
  "app",
  "lib",
  "db",
  "components",
  "next.config.mjs",
  "proxy.ts",
  "postcss.config.mjs",
  "package.json",
  "package-lock.json",
  "patches",
  "instrumentation.ts",
  "instrumentation.node.ts",
  "tsconfig.json",
];

function newestMtime(p: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** `next build` when `.next` is missing or older than any source file; returns what it did. */
export function ensureBuild(force: boolean): "fresh" | "built" {
  // Test files run in parallel workers and several serve the built app: one builds while the
  // others wait for it and then find the build fresh (two `next build` in one tree break both).
  return withBuildLock(() => {
    const buildId = path.join(ROOT, ".next", "BUILD_ID");
    const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
    const newest = Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
    if (!force && built > newest) return "fresh";
    console.log(built ? "Sources changed since the last build: next build…" : "No production build yet: next build…");
    const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "build"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (r.status !== 0) throw new Error(`next build failed (exit ${r.status}); fix the build or run with --no-build`);
    return "built";
  });
}

const LOCK = path.join(ROOT, ".data", "next-build.lock");
/** A lock left by a process that died mid-build is taken over after this long. */
const STALE_LOCK_MS = 20 * 60_000;

/** Runs `fn` holding a lock directory (mkdir is atomic), waiting for another holder to finish. */
function withBuildLock<T>(fn: () => T): T {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) fs.rmSync(LOCK, { recursive: true, force: true });
      // The callers are synchronous: block this worker half a second, then look again.
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

/**
 * A private copy of the build to serve from: other people's `next build` or `next dev` in this
 * tree rewrite `.next` under a running bench. The copy is a shadow project (every top-level entry
 * linked, `.next` copied without its caches) that `next start <dir>` and the cluster serve.
 */
export const SNAPSHOT_DIR = path.join(ROOT, ".data", "bench-app");

export function snapshotBuild(shadow: string = SNAPSHOT_DIR): string {
  fs.rmSync(shadow, { recursive: true, force: true });
  fs.mkdirSync(shadow, { recursive: true });
  for (const entry of fs.readdirSync(ROOT)) {
    if ([".next", ".data", ".git"].includes(entry)) continue;
    fs.symlinkSync(path.join(ROOT, entry), path.join(shadow, entry));
  }
  const src = path.join(ROOT, ".next");
  if (!fs.existsSync(path.join(src, "BUILD_ID"))) throw new Error("No production build in .next (another build running?)");
  fs.cpSync(src, path.join(shadow, ".next"), {
    recursive: true,
    filter: (from) => !/[\\/]\.next[\\/](cache|dev|diagnostics)([\\/]|$)/.test(from),
  });
  return shadow;
}
