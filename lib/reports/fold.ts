import "server-only";
import { getDb, transaction, type Tx } from "@/db/client";
import { foldHistogramDeltas, foldMessageDeltas, vacuumDeltas, type ReportDeltas } from "./repo";

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
export const foldReportMessageDeltas = () => foldThenVacuum("messages", foldMessageDeltas);
export const foldReportHistogramDeltas = () => foldThenVacuum("histograms", foldHistogramDeltas);

async function foldThenVacuum(deltas: ReportDeltas, fold: (tx: Tx) => Promise<number>): Promise<number> {
  const moved = await transaction(fold);
  if (moved > 0 || !vacuumed.has(deltas)) {
    await vacuumDeltas(await getDb(), deltas);
    vacuumed.add(deltas);
  }
  return moved;
}

/** Which deltas tables this process has vacuumed at least once. */
const vacuumed = new Set<ReportDeltas>();
