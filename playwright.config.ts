import path from "node:path";
import { defineConfig } from "@playwright/test";
import "./e2e/run-env";
import { BASE_URL, E2E_PORT, LIVE_BASE_URL } from "./e2e/fixtures";

/**
 * The e2e suite runs against the built app (`next build` first, then `next start` here) with a
 * fresh embedded database per run (PGLITE_DIR is wiped by e2e/prepare-db.ts), or against
 * DATABASE_URL when set. The delivery worker is off so sent messages stay QUEUED for the viewer.
 */
const pgliteDir = process.env.E2E_PGLITE_DIR!;
const env: Record<string, string> = {
  PGLITE_DIR: pgliteDir,
  // The demo token file and any other local state stay beside the throwaway database.
  DATA_DIR: path.dirname(pgliteDir),
  SEED_DEMO: "1",
  WORKER_IN_PROCESS: "0",
  PORT: String(E2E_PORT),
  APP_URL: BASE_URL,
  APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY || "e2e-encryption-key",
  // e2e/webhooks.spec.ts points a webhook endpoint at a receiver on 127.0.0.1.
  ALLOW_PRIVATE_WEBHOOK_URLS: "1",
};
// On a Postgres server the browser suite gets a fresh database of its own beside DATABASE_URL
// (`<name>_e2e`, recreated by e2e/prepare-db.ts), as it gets a fresh folder on PGlite: the
// Vitest phase of `npm test` leaves its teams and its own demo seed in DATABASE_URL.
if (process.env.DATABASE_URL) {
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `${url.pathname}_e2e`;
  env.DATABASE_URL = url.toString();
  env.E2E_SERVER_DATABASE_URL = process.env.DATABASE_URL;
}
if (process.env.PATH) env.PATH = process.env.PATH;
if (process.env.HOME) env.HOME = process.env.HOME;

// A second server for the specs that watch delivery (ticks reaching READED): the same app on a
// database of its own (`<name>_e2e_live`, or its own folder), with the delivery worker in its
// process and a fast sandbox walk. The embedded database is one process, so the worker cannot
// run beside the first server; and the first keeps its worker off so sends stay QUEUED there.
const livePort = Number(process.env.E2E_LIVE_PORT);
const livePglite = process.env.E2E_LIVE_PGLITE_DIR!;
const liveEnv: Record<string, string> = {
  ...env,
  PGLITE_DIR: livePglite,
  DATA_DIR: path.dirname(livePglite),
  WORKER_IN_PROCESS: "1",
  SANDBOX_STEP_MS: "300",
  // The sandbox approves a template from the editor this long after its submission (e2e/template-editor.spec.ts).
  SANDBOX_TEMPLATE_REVIEW_MS: "1500",
  PORT: String(livePort),
  APP_URL: LIVE_BASE_URL,
};
if (process.env.DATABASE_URL) {
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `${url.pathname}_e2e_live`;
  liveEnv.DATABASE_URL = url.toString();
}

export default defineConfig({
  testDir: "e2e",
  testMatch: /.*\.spec\.ts$/,
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: BASE_URL,
    locale: "es-CO",
    timezoneId: "UTC",
    trace: process.env.E2E_TRACE === "off" ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: [
    {
      command: `npx tsx --conditions=react-server e2e/prepare-db.ts && npx next start -p ${E2E_PORT}`,
      url: `${BASE_URL}/login`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env,
    },
    {
      command: `npx tsx --conditions=react-server e2e/prepare-db.ts && npx next start -p ${livePort}`,
      url: `${LIVE_BASE_URL}/login`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: liveEnv,
    },
  ],
});
