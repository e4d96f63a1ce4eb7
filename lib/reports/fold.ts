import "server-only";
import { sql } from "drizzle-orm";
import { getDb, transaction } from "@/db/client";
import { foldHistogramDeltas, foldMessageDeltas, vacuumDeltas } from "./repo";

/**
 * The reports' folds (lib/chores/schedule.ts runs them about once a second in every process): each
 * moves a batch of deltas into its per-day rollup in one transaction, then vacuums the deltas table
 * it emptied. Why the vacuum: every report reads the deltas not folded yet through their team_id
 * index, and a fold's DELETE leaves that index pointing at dead rows until a vacuum, which a
 * bitmap scan visits one by one (on the bench's set, after a 200,000-message bulk send, 160,000 of
 * them: 14 ms added to every report) and autovacuum may take a minute to come (or be off).
 * A process's first fold vacuums even when it moved nothing: dead rows a fold left without its
 * vacuum (a process stopped in between, or a bulk load's own fold) would stay until autovacuum.
 * Returns how many deltas were moved, -1 when another process was folding.
 */
export async function foldReportMessageDeltas(): Promise<number> {
  const moved = await transaction(foldMessageDeltas);
  if (moved > 0 || !vacuumed.has("messages")) {
    await vacuumDeltas(await getDb(), sql`report_message_deltas`);
    vacuumed.add("messages");
  }
  return moved;
}

export async function foldReportHistogramDeltas(): Promise<number> {
  const moved = await transaction(foldHistogramDeltas);
  if (moved > 0 || !vacuumed.has("histograms")) {
    await vacuumDeltas(await getDb(), sql`report_histogram_deltas`);
    vacuumed.add("histograms");
  }
  return moved;
}

/** Which deltas tables this process has vacuumed at least once. */
const vacuumed = new Set<"messages" | "histograms">();
