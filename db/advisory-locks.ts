/**
 * Every Postgres advisory lock id of the codebase, in one place: two users of one id silently
 * wait for or skip each other (the seed once made the stats fold skip a turn, and the event log's
 * partitions and the report histogram fold once shared an id). A new lock takes the next number.
 */
export const ADVISORY_LOCKS = {
  /** The demo seed (pg_advisory_xact_lock): two replicas starting at once seed one after another. */
  seed: 727_273,
  /** The migrations (session lock on their own connection, db/migrate.ts). */
  migrations: 727_274,
  /** message_stats fold (try-lock). */
  statsFold: 727_275,
  /** The reports' message-count fold (try-lock). */
  reportMessagesFold: 727_276,
  /** The reports' histogram fold (try-lock). */
  reportHistogramsFold: 727_277,
  /** The event log's partitions (try-lock). */
  eventPartitions: 727_278,
  /** The partitions of messages (try-lock). */
  messagePartitions: 727_279,
  /**
   * The event-stream leases of one holder (pg_advisory_xact_lock(this, hashtext(holder)), the
   * two-key form, which never meets the one-key locks above).
   */
  streamLeases: 727_280,
} as const;
