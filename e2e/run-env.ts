import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Each run of the browser suite gets a free port and a temporary data folder of its own, so two
 * runs on one machine never collide. The main Playwright process chooses them once (this module
 * is imported first by playwright.config.ts) and its workers inherit them through the
 * environment. E2E_PORT and E2E_PGLITE_DIR still pin them when set.
 */
const freePort = () => {
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim();
};
const tempDir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "wa-e2e-")), "pglite");
process.env.E2E_PORT ||= freePort();
process.env.E2E_PGLITE_DIR ||= tempDir();
// The second server, with the delivery worker in its process (playwright.config.ts).
process.env.E2E_LIVE_PORT ||= freePort();
process.env.E2E_LIVE_PGLITE_DIR ||= tempDir();
