import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createConversation, insertMessages, minuteSeries } from "../helpers/history-factories";
import { waitFor } from "../helpers/wait";
import { readCounts } from "@/db/client";
import { runAdmin } from "@/lib/admin/run";
import { config } from "@/lib/config";

/**
 * The read replica going away and coming back (docs/deployment.md): with it stopped, reads are answered by
 * the primary with no 5xx and the health route says so; started again, reads move back to it.
 * Runs only in the scale pass (scripts/test-scale.sh), which says how to stop and start it.
 */
const replicaDir = process.env.SCALE_REPLICA_DIR ?? "";
const pgCtl = process.env.SCALE_PG_CTL ?? "";
const runAs = process.env.SCALE_RUN_AS ?? "";

function replica(action: "stop" | "start") {
  const args = ["-D", replicaDir, "-w", ...(action === "stop" ? ["-m", "fast", "stop"] : ["-l", `${replicaDir}/../replica.log`, "start"])];
  if (runAs) execFileSync("runuser", ["-u", runAs, "--", pgCtl, ...args], { stdio: "ignore" });
  else execFileSync(pgCtl, args, { stdio: "ignore" });
}

let server: TestServer;
let stopped = false;
beforeAll(async () => {
  expect(config.databaseReadUrl, "the scale pass sets DATABASE_READ_URL (scripts/test-scale.sh)").toBeTruthy();
  expect(replicaDir && pgCtl, "the scale pass sets SCALE_REPLICA_DIR and SCALE_PG_CTL").toBeTruthy();
  server = await startServer();
});
afterAll(async () => {
  if (stopped) replica("start");
  await server?.close();
});

type Conv = Awaited<ReturnType<typeof createConversation>>;
const historyPath = (conv: Conv) =>
  `/api/v1/messages/whatsapp/history?${new URLSearchParams({ customer_source: conv.contact.customerNumber!, wa_number: conv.number.number, from_date: "2026-03-10", to_date: "2026-03-10" })}`;

describe("the read replica", { timeout: 120_000 }, () => {
  it("serves the history; stopped, the primary answers and health says so; started, reads move back", async () => {
    const conv = await createConversation();
    await insertMessages(conv, minuteSeries("2026-03-10T12:00:00Z", 5));
    const api = apiClient(server.url, conv.team.token);
    const health = apiClient(server.url);

    // Up: the replica is in use, and once it has replayed the fixtures the history comes from it.
    const up = await waitFor(
      () => health.get("/api/v1/health"),
      (r) => r.body?.replica?.in_use === true,
    );
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ status: "ok", primary: "up", replica: { configured: true, state: "up" } });
    expect(up.body.replica.lag_s).toBeLessThanOrEqual(config.readReplicaMaxLagS);
    // The admin CLI probes it now and says the same.
    const status = await runAdmin(["db:status"]);
    expect(status.code).toBe(0);
    expect(status.output).toMatchObject({ status: "ok", database: "postgres", primary: "up", replica: { configured: true, in_use: true } });
    const before = readCounts.replica;
    const fromReplica = await waitFor(
      () => api.get(historyPath(conv)),
      (r) => r.status === 200 && r.body.data.length === 5,
    );
    expect(fromReplica.body.data).toHaveLength(5);
    expect(readCounts.replica).toBeGreaterThan(before);

    // Down: every read is answered (by the primary), none with a 5xx; health reports the replica down.
    replica("stop");
    stopped = true;
    for (let i = 0; i < 10; i++) {
      const r = await api.get(historyPath(conv));
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(5);
      const list = await api.get("/api/v1/conversations");
      expect(list.status).toBe(200);
    }
    const down = await waitFor(
      () => health.get("/api/v1/health"),
      (r) => r.body?.replica?.state === "down",
    );
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ status: "degraded", primary: "up", replica: { configured: true, in_use: false, state: "down" } });
    expect((await runAdmin(["db:status"])).output).toMatchObject({ status: "degraded", replica: { state: "down", lag_s: null } });
    const whileDown = readCounts.replica;
    expect((await api.get(historyPath(conv))).status).toBe(200);
    expect(readCounts.replica, "no read is sent to a replica known to be down").toBe(whileDown);

    // Back: the probe finds it, and reads go to it again.
    replica("start");
    stopped = false;
    const back = await waitFor(
      () => health.get("/api/v1/health"),
      (r) => r.body?.replica?.in_use === true,
      30_000,
    );
    expect(back.body).toMatchObject({ status: "ok", replica: { state: "up" } });
    const again = readCounts.replica;
    const r = await api.get(historyPath(conv));
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(5);
    expect(readCounts.replica).toBeGreaterThan(again);
  });
});
