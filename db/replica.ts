import "server-only";
import type { Sql } from "postgres";
import { connectionLost, pgErrorCode } from "./errors";

/**
 * The read replica of this process (DATABASE_READ_URL) and what it is worth right now. A probe
 * runs every PROBE_MS in the background: while the replica answers and its lag is at most
 * READ_REPLICA_MAX_LAG_S, the read-heavy pages read from it (db/client.ts `withReadDb`); while it
 * lags, is down or has not answered yet, they read from the primary, and come back on the first
 * good probe. A read that fails on the replica with a lost connection marks it down at once, so
 * the requests after it do not wait for the next probe to find out.
 */
export const PROBE_MS = 1000;
/** A probe that takes longer than this counts as a replica that is down. */
const PROBE_TIMEOUT_MS = 3000;

/**
 * Seconds the replica's replayed data trails the primary. `now() - pg_last_xact_replay_timestamp()`
 * alone grows while the primary is idle (nothing new to replay), so a replica whose WAL receiver
 * is connected and has replayed all it received counts as 0. Without a running WAL receiver (cut
 * off from the primary, or restoring from an archive) nothing says it is current, so the replay
 * age is the lag. A server that is not in recovery (the URL points at a primary, or the replica
 * was promoted) has no lag. `pg_stat_wal_receiver` shows its row to any role, details only to
 * privileged ones: only the row's existence is used.
 */
const PROBE_SQL = `SELECT CASE
  WHEN NOT pg_is_in_recovery() THEN 0
  WHEN pg_last_wal_receive_lsn() IS NOT NULL
    AND pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()
    AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver) THEN 0
  ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())
END::float8 AS lag_s,
(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END)::text AS lsn`;
/** Where the primary's WAL ends now: every transaction committed before this ran lies before it. */
const PRIMARY_LSN_SQL = `SELECT pg_current_wal_lsn()::text AS lsn`;
/** Primary positions waiting for the replica to replay them (one per probe; bounded). */
const MAX_SAMPLES = 120;

/** A WAL position ("16/B374D848") as a number that orders like it. */
function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split("/");
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** What the health route and the admin CLI show (nothing tenant-specific). */
export type ReplicaStatus = {
  configured: true;
  /** Whether reads go to the replica right now. */
  in_use: boolean;
  /** "up", "lagging" (past the limit), "down" (not answering) or "unknown" (no probe answered yet). */
  state: "up" | "lagging" | "down" | "unknown";
  /** Seconds behind the primary at the last good probe; null when unknown. */
  lag_s: number | null;
  max_lag_s: number;
  checked_at: string | null;
};

/**
 * Read-your-writes for a team's own writes: a team that wrote through this process (lib/http
 * `withAuth`, any request but GET/HEAD) reads from the primary until the replica has replayed past
 * that write. Each probe notes the primary's WAL end and when it asked; once the replica's replay
 * position passes a noted end, everything committed before that moment is on the replica
 * (`caughtUpTo`). A team that writes constantly thus reads from the primary, as it must to see
 * its writes; every other team reads from the replica.
 */
export class ReplicaMonitor {
  private state: ReplicaStatus["state"] = "unknown";
  private lagS: number | null = null;
  private checkedAt: Date | null = null;
  private timer?: ReturnType<typeof setInterval>;
  private probing = false;
  private samples: { at: number; lsn: bigint }[] = [];
  /** Everything committed on the primary before this time (ms) has been replayed by the replica. */
  private caughtUpTo = 0;
  private lastWrite = new Map<number, number>();

  constructor(
    private readonly client: Sql,
    private readonly primary: Sql,
    private readonly maxLagS: () => number,
  ) {}

  /** A write for this team just committed in this process (see the class comment). */
  noteWrite(teamId: number) {
    this.lastWrite.set(teamId, Date.now());
  }

  /** Whether this team's reads may go to the replica now. */
  usableFor(teamId: number): boolean {
    if (!this.usable()) return false;
    const wrote = this.lastWrite.get(teamId);
    return wrote === undefined || wrote < this.caughtUpTo;
  }

  start() {
    void this.probe();
    this.timer = setInterval(() => void this.probe(), PROBE_MS);
    // The probe never keeps a process (a CLI command, a test worker) alive on its own.
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Whether reads may go to the replica now. */
  usable(): boolean {
    return this.state === "up";
  }

  /** A read failed on the replica for want of a connection: reads go to the primary until a probe succeeds. */
  markDown() {
    this.state = "down";
    this.lagS = null;
  }

  /** One probe now (tests call it to see a change at once instead of waiting for the timer). */
  async probe(): Promise<ReplicaStatus> {
    if (this.probing) return this.status();
    this.probing = true;
    let timeout: ReturnType<typeof setTimeout> | undefined;
    try {
      const timedOut = new Promise<never>((_, reject) => {
        timeout = setTimeout(
          () => reject(Object.assign(new Error("replica probe timed out"), { code: "CONNECT_TIMEOUT" })),
          PROBE_TIMEOUT_MS,
        );
      });
      await this.samplePrimary(timedOut);
      const [row] = await Promise.race([this.client.unsafe<{ lag_s: number | null; lsn: string | null }[]>(PROBE_SQL), timedOut]);
      const lag = row?.lag_s == null ? null : Math.max(0, Number(row.lag_s));
      this.lagS = lag;
      this.state = lag !== null && lag <= this.maxLagS() ? "up" : "lagging";
      if (row?.lsn) this.replayedTo(lsnValue(row.lsn));
    } catch (err) {
      if (this.state !== "down") {
        console.error(
          `[db] read replica unavailable (${pgErrorCode(err) ?? (err as { code?: string })?.code ?? "error"}); reading from the primary`,
        );
      }
      this.state = "down";
      this.lagS = null;
    } finally {
      clearTimeout(timeout);
      this.checkedAt = new Date();
      this.probing = false;
    }
    return this.status();
  }

  /** Notes where the primary's WAL ends now; a primary that does not answer is simply not sampled. */
  private async samplePrimary(timedOut: Promise<never>) {
    const at = Date.now();
    try {
      const [row] = await Promise.race([this.primary.unsafe<{ lsn: string }[]>(PRIMARY_LSN_SQL), timedOut]);
      this.samples.push({ at, lsn: lsnValue(row.lsn) });
      if (this.samples.length > MAX_SAMPLES) this.samples.shift();
    } catch {}
  }

  /** The replica has replayed up to `lsn`: every sample at or before it is on the replica. */
  private replayedTo(lsn: bigint) {
    while (this.samples.length && this.samples[0].lsn <= lsn) this.caughtUpTo = this.samples.shift()!.at;
    for (const [team, at] of this.lastWrite) if (at < this.caughtUpTo) this.lastWrite.delete(team);
  }

  status(): ReplicaStatus {
    return {
      configured: true,
      in_use: this.usable(),
      state: this.state,
      lag_s: this.lagS === null ? null : Math.round(this.lagS * 1000) / 1000,
      max_lag_s: this.maxLagS(),
      checked_at: this.checkedAt?.toISOString() ?? null,
    };
  }
}

/**
 * Whether a read that failed on the replica should simply be run on the primary: the replica
 * cannot be reached (it is then marked down), or it cancelled the query in a conflict with
 * recovery (40001: WAL replay needed rows the query was reading; the replica itself is fine).
 */
export function replicaReadFailure(err: unknown): "down" | "conflict" | null {
  if (connectionLost(err)) return "down";
  if (pgErrorCode(err) === "40001") return "conflict";
  return null;
}
