import { afterAll, beforeAll, expect, it } from "vitest";
import { prepareBuiltApp, startBuiltApp, type AppProcess } from "../helpers/built-app";
import { committedRows, sendLoopThenSigterm } from "../helpers/send-outcomes";

// Temporary, not committed: the same scenario under `npm run start:cluster` (needs DATABASE_URL).
let appDir: string;
const apps: AppProcess[] = [];
beforeAll(() => {
  appDir = prepareBuiltApp("graceful-shutdown");
}, 900_000);
afterAll(() => {
  for (const app of apps) app.cleanup();
});
it("cluster", async () => {
  const app = await startBuiltApp(appDir, { SHUTDOWN_TIMEOUT_S: "25", WEB_CONCURRENCY: "2" }, { cluster: true });
  apps.push(app);
  const r = await sendLoopThenSigterm(app, { clients: 30, acksBeforeSigterm: 90, timeoutS: 30 });
  const broken = r.outcomes.filter((o) => o.kind === "broken");
  const answered = r.outcomes.filter((o) => o.kind === "answered");
  console.log(`[cluster] ${answered.length} answered (${answered.filter((o) => o.at >= r.killedAt).length} after), ${r.outcomes.filter((o) => o.kind === "refused").length} refused, ${broken.length} broken; exit ${JSON.stringify(r.exit)} after ${r.exitMs} ms`);
  console.log(app.output().split("\n").filter((l) => /shutdown|cluster/.test(l)).join("\n"));
  expect(broken).toEqual([]);
  expect(r.exit).toEqual({ code: 0, signal: null });
  const rows = await committedRows(app, r.group);
  expect(rows.map((x) => x.update_id).sort()).toEqual(answered.map((o) => o.updateId).sort());
  expect(rows.filter((x) => x.leased)).toEqual([]);
}, 600_000);
