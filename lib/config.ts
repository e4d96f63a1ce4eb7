import path from "node:path";
import { z } from "zod";

/**
 * Every setting of the service (docs/operations.md, "Configuration"), and the only module that reads
 * `process.env` for them. Each variable has one zod schema: `checkSettings()` validates them all
 * at start-up (a bad value stops the process with a message naming it), and each getter parses
 * its own variable when read, so tests that change the environment see the change. A getter never
 * returns a half-parsed value: if a variable is invalid after start-up (only tests do that), the
 * getter falls back to its default.
 */

/** An empty variable counts as unset, as shells and .env files commonly leave them. */
const unset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalText = z.preprocess(unset, z.string().optional());
const positive = (fallback: number) => z.preprocess(unset, z.coerce.number().positive().finite().default(fallback));
const positiveInt = (fallback: number) => z.preprocess(unset, z.coerce.number().int().positive().default(fallback));
const count = (fallback: number) => z.preprocess(unset, z.coerce.number().int().min(0).default(fallback));
const flag = (fallback: "0" | "1") => z.preprocess(unset, z.enum(["0", "1"]).default(fallback));
const httpUrl = z.url({ protocol: /^https?$/ });

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function isPostgresUrl(v: string): boolean {
  return /^postgres(ql)?:\/\//.test(v);
}

const schema = {
  NODE_ENV: z.preprocess(unset, z.enum(["development", "production", "test"]).optional()),
  DATABASE_URL: z.preprocess(unset, z.string().refine(isPostgresUrl, { message: "debe ser una URL postgres://…" }).optional()),
  DATABASE_POOL_SIZE: positiveInt(10),
  // A session connection to the primary (LISTEN, migrations' lock); when set, DATABASE_URL is a
  // transaction pooler (docs/deployment.md).
  DATABASE_DIRECT_URL: z.preprocess(unset, z.string().refine(isPostgresUrl, { message: "debe ser una URL postgres://…" }).optional()),
  // A streaming replica for the read-heavy pages (db/replica.ts).
  DATABASE_READ_URL: z.preprocess(unset, z.string().refine(isPostgresUrl, { message: "debe ser una URL postgres://…" }).optional()),
  // Whether DATABASE_READ_URL goes through a transaction pooler too (default: as DATABASE_URL does).
  DATABASE_READ_POOLED: z.preprocess(unset, z.enum(["0", "1"]).optional()),
  READ_REPLICA_MAX_LAG_S: positive(5),
  PGLITE_DIR: optionalText,
  // A dump of a migrated PGlite data folder (PGlite's dumpDataDir) that an in-memory database
  // starts from: the test suite migrates once and each test file loads it (tests/global-setup.ts).
  PGLITE_TEMPLATE: optionalText,
  DATA_DIR: optionalText,
  PORT: positiveInt(3000),
  APP_URL: z.preprocess(unset, httpUrl.optional()),
  APP_TIMEZONE: z.preprocess(
    unset,
    z.string().default("UTC").refine(isTimeZone, { message: "no es una zona horaria IANA válida (p. ej. UTC, America/Bogota)" }),
  ),
  HISTORY_MAX_RANGE_DAYS: positive(90),
  IDEMPOTENCY_TTL_HOURS: positive(24),
  // Hashed into the AES key, so any long random string works; a short one is a guessable key.
  APP_ENCRYPTION_KEY: z.preprocess(unset, z.string().min(16, "debe tener al menos 16 caracteres").optional()),
  DEMO_API_TOKEN: optionalText,
  SEED_DEMO: z.preprocess(unset, z.enum(["0", "1"]).optional()),
  RATE_LIMIT_PER_MINUTE: count(600),
  TRUST_PROXY: count(0),
  SIGN_IN_FREE_FAILURES: count(5),
  SIGN_IN_MAX_DELAY_SECONDS: count(60),
  SESSIONS_PER_AGENT: positiveInt(10),
  AUDIT_RETENTION_DAYS: positiveInt(365),
  // Outgoing mail (agent invitations; lib/mail): an SMTP server's URL, smtp:// (STARTTLS when the
  // server offers it) or smtps:// (TLS from the start), with its user and password in the URL.
  SMTP_URL: z.preprocess(unset, z.url({ protocol: /^smtps?$/, error: "debe ser una URL smtp:// o smtps://" }).optional()),
  // The sender of that mail: an address, or "Nombre <dirección>".
  MAIL_FROM: z.preprocess(
    unset,
    z
      .string()
      .regex(/^([^<>]+<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, "debe ser una dirección de correo o Nombre <dirección>")
      .optional(),
  ),
  // Minutes between scheduled syncs of each business account's templates with Meta; 0 turns them off.
  TEMPLATE_SYNC_INTERVAL_MIN: count(360),
  // How long the sandbox "reviews" a template submitted from the editor before approving it.
  SANDBOX_TEMPLATE_REVIEW_MS: count(60_000),
  AUTH_FAILURES_PER_ADDRESS: count(100),
  PASSWORD_HASH_CONCURRENCY: positiveInt(2),
  SESSION_TTL_HOURS: positive(12),
  WORKER_IN_PROCESS: flag("1"),
  WORKER_POLL_MS: positiveInt(1000),
  WORKER_CONCURRENCY: positiveInt(256),
  DELIVERY_MAX_ATTEMPTS: positiveInt(8),
  SANDBOX_STEP_MS: positiveInt(1500),
  DELIVERY_UNCERTAIN_GRACE_S: z.preprocess(unset, z.coerce.number().min(0).finite().default(60)),
  // Meta's rolling window of a number's messaging limit (24 h); only tests shorten it.
  MESSAGING_LIMIT_WINDOW_MS: positiveInt(24 * 60 * 60 * 1000),
  GRAPH_API_BASE_URL: z.preprocess(unset, httpUrl.default("https://graph.facebook.com")),
  GRAPH_API_VERSION: z.preprocess(
    unset,
    z
      .string()
      .regex(/^v\d+\.\d+$/, "debe tener la forma v21.0")
      .default("v21.0"),
  ),
  GRAPH_TIMEOUT_MS: positiveInt(15_000),
  WHATSAPP_APP_SECRET: optionalText,
  WHATSAPP_VERIFY_TOKEN: optionalText,
  EVENTS_RETENTION_HOURS: z.preprocess(unset, z.coerce.number().int().min(24, "debe ser al menos 24").default(168)),
  // Unset: messages are kept forever. Whole months are dropped (lib/messages/partitions.ts).
  MESSAGES_RETENTION_MONTHS: z.preprocess(unset, z.coerce.number().int().min(1, "debe ser al menos 1").optional()),
  EVENTS_POLL_MS: z.preprocess(
    unset,
    z.coerce.number().int().min(10, "debe ser al menos 10").max(5000, "debe ser como mucho 5000").default(100),
  ),
  ALLOW_PRIVATE_WEBHOOK_URLS: flag("0"),
  // Comma-separated; a customer's message that is exactly one of them opts them out of marketing.
  OPT_OUT_WORDS: z.preprocess(unset, z.string().default("SALIR,STOP,BAJA")),
  BENCH_ROUTES: flag("0"),
  WEBHOOK_FAST_LANE: flag("1"),
  // Webhook posts one process works on at once; past it Meta's posts answer 503 at once (it retries).
  WEBHOOK_MAX_IN_FLIGHT: positiveInt(256),
  HTTP_HEADERS_TIMEOUT_S: positive(10),
  HTTP_REQUEST_TIMEOUT_S: positive(60),
  HTTP_KEEP_ALIVE_TIMEOUT_S: positive(5),
  SHUTDOWN_TIMEOUT_S: positive(25),
} as const;

type Schema = typeof schema;
export type SettingName = keyof Schema;
type Value<K extends SettingName> = z.output<Schema[K]>;

/** Values that must never be echoed back in an error message. */
const SECRET: ReadonlySet<SettingName> = new Set([
  "APP_ENCRYPTION_KEY",
  // It carries the SMTP password.
  "SMTP_URL",
  "DEMO_API_TOKEN",
  "WHATSAPP_APP_SECRET",
  "WHATSAPP_VERIFY_TOKEN",
  "DATABASE_URL",
  "DATABASE_DIRECT_URL",
  "DATABASE_READ_URL",
]);

// Parsed values are cached per raw string: a getter on a hot path costs one env read.
const cache = new Map<SettingName, { raw: string | undefined; value: unknown }>();

function read<K extends SettingName>(name: K): Value<K> {
  const raw = process.env[name];
  const hit = cache.get(name);
  if (hit && hit.raw === raw) return hit.value as Value<K>;
  const parsed = schema[name].safeParse(raw);
  const value = parsed.success ? parsed.data : schema[name].parse(undefined);
  cache.set(name, { raw, value });
  return value as Value<K>;
}

/** `next start` and `npm run worker` in production: the shared-database deployment. */
function production(): boolean {
  return read("NODE_ENV") === "production";
}

export const config = {
  get production(): boolean {
    return production();
  },
  get databaseUrl(): string | undefined {
    return read("DATABASE_URL");
  },
  get databasePoolSize(): number {
    return read("DATABASE_POOL_SIZE");
  },
  /**
   * A direct (session) connection to the primary, for what a transaction pooler cannot carry:
   * LISTEN, and the migrations' session advisory lock. Setting it declares DATABASE_URL a
   * transaction pooler (PgBouncer pool_mode=transaction): no named prepared statements on it.
   */
  get databaseDirectUrl(): string | undefined {
    return read("DATABASE_URL") ? read("DATABASE_DIRECT_URL") : undefined;
  },
  /** True when DATABASE_URL goes through a transaction pooler (implied by DATABASE_DIRECT_URL). */
  get databaseBehindPooler(): boolean {
    return Boolean(read("DATABASE_URL") && read("DATABASE_DIRECT_URL"));
  },
  /** A streaming replica of the primary for the read-heavy pages (db/replica.ts); PostgreSQL only. */
  get databaseReadUrl(): string | undefined {
    return read("DATABASE_URL") ? read("DATABASE_READ_URL") : undefined;
  },
  /**
   * Whether the replica is reached through a transaction pooler (DATABASE_READ_POOLED; by default
   * whatever DATABASE_URL is). A replica connected directly keeps named statements, which a
   * pooled one cannot: through the pooler a history page cost the replica about three times the
   * CPU (every statement parsed and planned afresh; bench/log/2026-11-26-pooler-and-replica.md).
   */
  get databaseReadPooled(): boolean {
    const v = read("DATABASE_READ_POOLED");
    return v === undefined ? this.databaseBehindPooler : v === "1";
  },
  /** Replica lag past which its reads go to the primary until it catches up (default 5 s). */
  get readReplicaMaxLagS(): number {
    return read("READ_REPLICA_MAX_LAG_S");
  },
  /** PGlite folder when DATABASE_URL is unset; `memory://` keeps it in memory (tests). */
  get pgliteDir(): string {
    return read("PGLITE_DIR") || path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", "pglite");
  },
  /** A migrated data folder's dump an in-memory PGlite starts from (tests; unset: an empty one). */
  get pgliteTemplate(): string | undefined {
    return read("PGLITE_TEMPLATE");
  },
  get dataDir(): string {
    return read("DATA_DIR") || path.join(/*turbopackIgnore: true*/ process.cwd(), ".data");
  },
  get timezone(): string {
    return read("APP_TIMEZONE");
  },
  get historyMaxRangeDays(): number {
    return read("HISTORY_MAX_RANGE_DAYS");
  },
  /** How long an Idempotency-Key replays its first answer; older keys are swept (default 24 h). */
  get idempotencyTtlHours(): number {
    return read("IDEMPOTENCY_TTL_HOURS");
  },
  /** Public base URL, used for media links inside payloads. */
  get appUrl(): string {
    return (read("APP_URL") || `http://localhost:${read("PORT")}`).replace(/\/$/, "");
  },
  get encryptionKey(): string | undefined {
    return read("APP_ENCRYPTION_KEY");
  },
  get demoApiToken(): string | undefined {
    return read("DEMO_API_TOKEN");
  },
  /**
   * Seed the demo team on start when the database is empty. On by default for the embedded
   * database and development; a production server on a shared database seeds (and shows the
   * demo sign-in hint) only when SEED_DEMO=1 is set explicitly, since the demo password is public.
   */
  get seedDemo(): boolean {
    const explicit = read("SEED_DEMO");
    if (explicit) return explicit === "1";
    return !(production() && read("DATABASE_URL"));
  },
  /** Requests per minute per API token or session; 0 turns limiting off. */
  get rateLimitPerMinute(): number {
    return read("RATE_LIMIT_PER_MINUTE");
  },
  get sessionTtlSeconds(): number {
    return Math.round(read("SESSION_TTL_HOURS") * 3600);
  },
  /** Run the delivery worker inside the web process (off when workers run on their own). */
  get workerInProcess(): boolean {
    return read("WORKER_IN_PROCESS") === "1";
  },
  /** How long the event log keeps events for `Last-Event-ID` replays (at least 24 h). */
  get eventsRetentionHours(): number {
    return read("EVENTS_RETENTION_HOURS");
  },
  /** Months of messages kept (whole months are dropped past it); undefined: forever. */
  get messagesRetentionMonths(): number | undefined {
    return read("MESSAGES_RETENTION_MONTHS");
  },
  /** How often each process reads the event log while it has streams open (lib/events/bus.ts). */
  get eventsPollMs(): number {
    return read("EVENTS_POLL_MS");
  },
  /**
   * `next start` answers Meta's signed webhook posts itself, before Next's request pipeline
   * (lib/meta-webhooks/fast-lane.ts): the same work and answer at a quarter of the server's CPU
   * per status. On unless WEBHOOK_FAST_LANE=0.
   */
  get webhookFastLane(): boolean {
    return read("WEBHOOK_FAST_LANE") === "1";
  },
  /**
   * Meta's webhook posts one process works on at once (lib/meta-webhooks/admission.ts): past it a
   * post is answered 503 with Retry-After before its body is read, so a backlog of retries after
   * an outage is shed at once instead of queueing until every client has given up (default 256).
   */
  get webhookMaxInFlight(): number {
    return read("WEBHOOK_MAX_IN_FLIGHT");
  },
  /**
   * What one connection may take (lib/http/connection-limits.ts): its request's headers within
   * HTTP_HEADERS_TIMEOUT_S (10), the whole request, body included, within HTTP_REQUEST_TIMEOUT_S
   * (60; a large upload on a slow link needs more), an idle keep-alive connection kept
   * HTTP_KEEP_ALIVE_TIMEOUT_S (5).
   */
  get httpLimits(): { headersTimeoutS: number; requestTimeoutS: number; keepAliveTimeoutS: number } {
    return {
      headersTimeoutS: read("HTTP_HEADERS_TIMEOUT_S"),
      requestTimeoutS: read("HTTP_REQUEST_TIMEOUT_S"),
      keepAliveTimeoutS: read("HTTP_KEEP_ALIVE_TIMEOUT_S"),
    };
  },
  /** The bench's empty and limiter-only routes answer only with BENCH_ROUTES=1. */
  get benchRoutes(): boolean {
    return read("BENCH_ROUTES") === "1";
  },
  /**
   * How long a SIGTERM/SIGINT drain (requests in flight, the worker's sends) may take before the
   * process exits anyway (default 25 s, under the 30 s Kubernetes and Docker wait before SIGKILL).
   */
  get shutdownTimeoutS(): number {
    return read("SHUTDOWN_TIMEOUT_S");
  },
  get workerPollMs(): number {
    return read("WORKER_POLL_MS");
  },
  /**
   * Messages one worker process sends at once. Each waits on the provider's answer for most of
   * its time, so the drain rate grows with this until the CPU is busy (bench/log/2026-11-22-findings.md, finding 4).
   */
  get workerConcurrency(): number {
    return read("WORKER_CONCURRENCY");
  },
  get deliveryMaxAttempts(): number {
    return read("DELIVERY_MAX_ATTEMPTS");
  },
  /** Words that opt a customer out of MARKETING templates (OPT_OUT_WORDS, default SALIR,STOP,BAJA). */
  get optOutWords(): string[] {
    return read("OPT_OUT_WORDS")
      .split(",")
      .map((w) => w.trim())
      .filter(Boolean);
  },
  get sandboxStepMs(): number {
    return read("SANDBOX_STEP_MS");
  },
  /** Seconds a send that may have reached Meta waits for its status webhook before it is resent. */
  get deliveryUncertainGraceS(): number {
    return read("DELIVERY_UNCERTAIN_GRACE_S");
  },
  /**
   * The rolling window over which a number's messaging limit tier counts the customers it opened
   * business-initiated conversations with (docs/features/broadcasts.md, "Messaging limit").
   */
  get messagingLimitWindowMs(): number {
    return read("MESSAGING_LIMIT_WINDOW_MS");
  },
  get graphBaseUrl(): string {
    return read("GRAPH_API_BASE_URL").replace(/\/$/, "");
  },
  get graphVersion(): string {
    return read("GRAPH_API_VERSION");
  },
  get graphTimeoutMs(): number {
    return read("GRAPH_TIMEOUT_MS");
  },
  /** App-wide webhook secret and verify token (else per number). */
  get whatsappAppSecret(): string | undefined {
    return read("WHATSAPP_APP_SECRET");
  },
  get whatsappVerifyToken(): string | undefined {
    return read("WHATSAPP_VERIFY_TOKEN");
  },
  /**
   * Reverse proxies in front of the app that append to X-Forwarded-For (lib/http/client-address.ts).
   * 0 (default): none; the address is the one Next writes from the socket, which a client talking
   * straight to `next start` can pre-empt by sending the header itself.
   */
  get trustProxyHops(): number {
    return read("TRUST_PROXY");
  },
  /**
   * Wrong passwords one email may get from one client address before each next attempt waits an
   * exponential delay (lib/auth/sign-in-throttle.ts; default 5).
   */
  get signInFreeFailures(): number {
    return read("SIGN_IN_FREE_FAILURES");
  },
  /** The longest sign-in delay, in seconds (default 60; 0 turns the delays off). */
  get signInMaxDelaySeconds(): number {
    return read("SIGN_IN_MAX_DELAY_SECONDS");
  },
  /** Open dashboard sessions per agent; signing in once more ends the oldest (default 10). */
  /**
   * Where agent invitations are mailed from (lib/mail), or null: without SMTP_URL and MAIL_FROM no
   * mail is sent and the inviting admin shares the link (docs/operations.md, "E-mail").
   */
  get mail(): { smtpUrl: string; from: string } | null {
    const smtpUrl = read("SMTP_URL");
    const from = read("MAIL_FROM");
    return smtpUrl && from ? { smtpUrl, from } : null;
  },
  /** Days the audit trail keeps its rows (lib/audit; default 365). */
  get auditRetentionDays(): number {
    return read("AUDIT_RETENTION_DAYS");
  },
  /**
   * Minutes between two scheduled syncs of a business account's templates with Meta's list
   * (lib/templates/sync-service.ts, a chore of each delivery worker; default 360, 0: off).
   */
  get templateSyncIntervalMin(): number {
    return read("TEMPLATE_SYNC_INTERVAL_MIN");
  },
  /**
   * Milliseconds a template submitted for a sandbox number stays PENDING before the sandbox approves
   * it, as Meta's status webhook would (lib/templates/editor-service.ts; default 60000, 0: at the
   * worker's next look).
   */
  get sandboxTemplateReviewMs(): number {
    return read("SANDBOX_TEMPLATE_REVIEW_MS");
  },
  get sessionsPerAgent(): number {
    return read("SESSIONS_PER_AGENT");
  },
  /**
   * Failed unauthenticated requests (wrong passwords, unsigned or mis-signed webhooks, wrong verify
   * tokens) per client address per 15 minutes before 429 (default 100; 0 turns it off).
   */
  get authFailuresPerAddress(): number {
    return read("AUTH_FAILURES_PER_ADDRESS");
  },
  /** Password hashes (scrypt) run at once per process; the rest wait in a short queue (default 2). */
  get passwordHashConcurrency(): number {
    return read("PASSWORD_HASH_CONCURRENCY");
  },
  /**
   * Lets bot and campaign webhook URLs and webhook endpoints reach loopback, private, link-local and reserved addresses
   * (default off: only public addresses; `1` for tests and local development).
   */
  get allowPrivateWebhookUrls(): boolean {
    return read("ALLOW_PRIVATE_WEBHOOK_URLS") === "1";
  },
};

export class InvalidSettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuración inválida; corrija estas variables de entorno y vuelva a iniciar:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "InvalidSettingsError";
  }
}

/** Every problem with the environment, each naming its variable (secrets are never echoed). */
export function settingsProblems(): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(schema) as SettingName[]) {
    const raw = process.env[name];
    const parsed = schema[name].safeParse(raw);
    if (parsed.success) continue;
    const shown = SECRET.has(name) ? "" : `="${raw}"`;
    problems.push(`${name}${shown}: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  }
  // Fail closed in production on a shared database: without a common key each replica would
  // invent its own and could not read the credentials another one wrote.
  if (production() && read("DATABASE_URL") && !read("APP_ENCRYPTION_KEY") && !problems.some((p) => p.startsWith("APP_ENCRYPTION_KEY"))) {
    problems.push("APP_ENCRYPTION_KEY: es obligatoria en producción con DATABASE_URL (la misma clave en todas las réplicas y workers)");
  }
  // The embedded database has neither replicas nor poolers: a URL for one without DATABASE_URL is
  // a mistake the operator should hear about, not a setting silently ignored.
  for (const name of ["DATABASE_DIRECT_URL", "DATABASE_READ_URL"] as const) {
    if (read(name) && !read("DATABASE_URL")) {
      problems.push(`${name}: requiere DATABASE_URL (la base embebida PGlite no tiene réplicas ni pooler)`);
    }
  }
  // Half a mail setting sends nothing: say so rather than leave invitations silently unmailed.
  if (read("SMTP_URL") && !read("MAIL_FROM") && !problems.some((p) => p.startsWith("MAIL_FROM"))) {
    problems.push("MAIL_FROM: es obligatoria con SMTP_URL (el remitente de las invitaciones)");
  }
  return problems;
}

/** Called once at start-up (server, worker, admin CLI): a bad setting stops the process. */
export function checkSettings(): void {
  const problems = settingsProblems();
  if (problems.length) throw new InvalidSettingsError(problems);
}
