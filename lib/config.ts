import path from "node:path";

/** Every setting of the service, read from the environment in one place (README "Configuration"). */
export const config = {
  get databaseUrl(): string | undefined {
    return process.env.DATABASE_URL || undefined;
  },
  /** PGlite folder when DATABASE_URL is unset; `memory://` keeps it in memory (tests). */
  get pgliteDir(): string {
    return process.env.PGLITE_DIR || path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", "pglite");
  },
  get dataDir(): string {
    return process.env.DATA_DIR || path.join(/*turbopackIgnore: true*/ process.cwd(), ".data");
  },
  get timezone(): string {
    return process.env.APP_TIMEZONE || "UTC";
  },
  get historyMaxRangeDays(): number {
    const n = Number(process.env.HISTORY_MAX_RANGE_DAYS);
    return Number.isFinite(n) && n > 0 ? n : 90;
  },
  /** How long an Idempotency-Key replays its first answer; older keys are swept (default 24 h). */
  get idempotencyTtlHours(): number {
    const n = Number(process.env.IDEMPOTENCY_TTL_HOURS);
    return Number.isFinite(n) && n > 0 ? n : 24;
  },
  /** Public base URL, used for media links inside payloads. */
  get appUrl(): string {
    return (process.env.APP_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/$/, "");
  },
  get encryptionKey(): string | undefined {
    return process.env.APP_ENCRYPTION_KEY || undefined;
  },
  get demoApiToken(): string | undefined {
    return process.env.DEMO_API_TOKEN || undefined;
  },
  /** Seed the demo team on start when the database is empty (default on). */
  get seedDemo(): boolean {
    return process.env.SEED_DEMO !== "0";
  },
  /**
   * Lets bot and campaign webhook URLs reach loopback, private, link-local and reserved addresses
   * (default off: only public addresses; `1` for tests and local development).
   */
  get allowPrivateWebhookUrls(): boolean {
    return process.env.ALLOW_PRIVATE_WEBHOOK_URLS === "1";
  },
};

/**
 * Settings that would otherwise fail request by request are checked once at start-up
 * (instrumentation.node.ts), so a typo stops the server with a clear message instead.
 */
export function assertValidConfig(): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: config.timezone });
  } catch {
    throw new Error(`APP_TIMEZONE="${config.timezone}" no es una zona horaria IANA válida (p. ej. UTC, America/Bogota).`);
  }
}
