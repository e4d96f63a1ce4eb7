import { afterEach, describe, expect, it, vi } from "vitest";
import { checkSettings, config } from "@/lib/config";

// Each test changes the environment through `setEnv` and gets it back as it was afterwards.
const saved = new Map<string, string | undefined>();
function setEnv(vars: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(vars)) {
    if (!saved.has(name)) saved.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
});

const PRODUCTION_DB = { NODE_ENV: "production", DATABASE_URL: "postgres://app:s3cr3t-pass@db.internal:5432/wa" };

describe("settings are validated at start-up", () => {
  it("accepts IANA zones and refuses a typo with a clear message", () => {
    setEnv({ APP_TIMEZONE: "America/Bogota" });
    expect(() => checkSettings()).not.toThrow();
    setEnv({ APP_TIMEZONE: "Mars/Base" });
    expect(() => checkSettings()).toThrow(/APP_TIMEZONE="Mars\/Base": no es una zona horaria IANA válida/);
  });

  it("names every bad number instead of turning it into NaN", () => {
    setEnv({ SESSION_TTL_HOURS: "abc", WORKER_CONCURRENCY: "-3", RATE_LIMIT_PER_MINUTE: "1.5" });
    let message = "";
    try {
      checkSettings();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/SESSION_TTL_HOURS="abc"/);
    expect(message).toMatch(/WORKER_CONCURRENCY="-3"/);
    expect(message).toMatch(/RATE_LIMIT_PER_MINUTE="1.5"/);
    // A getter read after start-up never yields NaN: it keeps the documented default.
    expect(config.sessionTtlSeconds).toBe(12 * 3600);
    setEnv({ SESSION_TTL_HOURS: "0.5" });
    expect(config.sessionTtlSeconds).toBe(1800);
  });

  it("treats an empty variable as unset", () => {
    setEnv({ SESSION_TTL_HOURS: "", GRAPH_API_BASE_URL: " " });
    expect(() => checkSettings()).not.toThrow();
    expect(config.sessionTtlSeconds).toBe(12 * 3600);
    expect(config.graphBaseUrl).toBe("https://graph.facebook.com");
  });

  it("refuses URLs of the wrong kind", () => {
    setEnv({ DATABASE_URL: "mysql://x@y/z", GRAPH_API_BASE_URL: "ftp://graph", APP_URL: "not a url" });
    expect(() => checkSettings()).toThrow(/DATABASE_URL: debe ser una URL postgres/);
    expect(() => checkSettings()).toThrow(/GRAPH_API_BASE_URL="ftp:\/\/graph"/);
    expect(() => checkSettings()).toThrow(/APP_URL="not a url"/);
  });

  it("checks the pooler and replica URLs, never echoing them, and refuses them without DATABASE_URL", () => {
    setEnv({
      DATABASE_URL: undefined,
      PGLITE_DIR: "memory://",
      DATABASE_DIRECT_URL: "postgres://u:pw@db:5432/wa",
      DATABASE_READ_URL: undefined,
    });
    expect(() => checkSettings()).toThrow(
      /DATABASE_DIRECT_URL: requiere DATABASE_URL \(la base embebida PGlite no tiene réplicas ni pooler\)/,
    );
    expect(config.databaseBehindPooler).toBe(false);
    setEnv({ DATABASE_DIRECT_URL: undefined, DATABASE_READ_URL: "postgres://u:pw@replica:5432/wa" });
    expect(() => checkSettings()).toThrow(/DATABASE_READ_URL: requiere DATABASE_URL/);
    expect(config.databaseReadUrl).toBeUndefined();

    setEnv({ DATABASE_URL: "postgres://u:pw@pooler:6432/wa", DATABASE_DIRECT_URL: "mysql://u:pw@db/wa", DATABASE_READ_URL: undefined });
    let message = "";
    try {
      checkSettings();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/DATABASE_DIRECT_URL: debe ser una URL postgres:\/\/…/);
    expect(message).not.toContain("pw@");

    setEnv({ DATABASE_DIRECT_URL: "postgres://u:pw@db:5432/wa", READ_REPLICA_MAX_LAG_S: "0" });
    expect(() => checkSettings()).toThrow(/READ_REPLICA_MAX_LAG_S="0"/);
    setEnv({ READ_REPLICA_MAX_LAG_S: undefined });
    expect(() => checkSettings()).not.toThrow();
    // A direct URL is what declares DATABASE_URL a transaction pooler.
    expect(config.databaseBehindPooler).toBe(true);
    expect(config.databaseDirectUrl).toBe("postgres://u:pw@db:5432/wa");
    expect(config.readReplicaMaxLagS).toBe(5);
    // The replica is pooled as the primary is, unless DATABASE_READ_POOLED says otherwise.
    expect(config.databaseReadPooled).toBe(true);
    setEnv({ DATABASE_READ_POOLED: "0" });
    expect(config.databaseReadPooled).toBe(false);
    setEnv({ DATABASE_DIRECT_URL: undefined, DATABASE_READ_POOLED: "1" });
    expect(config.databaseReadPooled).toBe(true);
    setEnv({ DATABASE_READ_POOLED: undefined });
    expect(config.databaseReadPooled).toBe(false);
    setEnv({ DATABASE_READ_POOLED: "sí" });
    expect(() => checkSettings()).toThrow(/DATABASE_READ_POOLED/);
    setEnv({ DATABASE_READ_POOLED: undefined });
  });
});

describe("production on a shared database fails closed", () => {
  it("refuses to start without APP_ENCRYPTION_KEY, naming it and never echoing secrets", () => {
    setEnv({ ...PRODUCTION_DB, APP_ENCRYPTION_KEY: undefined });
    expect(() => checkSettings()).toThrow(/APP_ENCRYPTION_KEY: es obligatoria en producción con DATABASE_URL/);
    expect(() => checkSettings()).not.toThrow(/s3cr3t-pass/);
    setEnv({ APP_ENCRYPTION_KEY: "short" });
    expect(() => checkSettings()).toThrow(/APP_ENCRYPTION_KEY: debe tener al menos 16 caracteres/);
    expect(() => checkSettings()).not.toThrow(/short/);
    setEnv({ APP_ENCRYPTION_KEY: "a-long-enough-production-key" });
    expect(() => checkSettings()).not.toThrow();
  });

  it("seeds demo data and shows the demo hint only when SEED_DEMO=1 is explicit", () => {
    setEnv({ ...PRODUCTION_DB, APP_ENCRYPTION_KEY: "a-long-enough-production-key", SEED_DEMO: undefined });
    expect(config.seedDemo).toBe(false);
    setEnv({ SEED_DEMO: "1" });
    expect(config.seedDemo).toBe(true);
  });

  it("keeps the embedded default zero-configuration", () => {
    setEnv({ NODE_ENV: "production", DATABASE_URL: undefined, APP_ENCRYPTION_KEY: undefined, SEED_DEMO: undefined });
    expect(() => checkSettings()).not.toThrow();
    expect(config.seedDemo).toBe(true);
    setEnv({ NODE_ENV: "development", DATABASE_URL: "postgres://localhost/dev" });
    expect(config.seedDemo).toBe(true);
    setEnv({ SEED_DEMO: "0" });
    expect(config.seedDemo).toBe(false);
  });

  it("never makes a per-host key file for a shared database", async () => {
    setEnv({ DATABASE_URL: "postgres://localhost/shared", APP_ENCRYPTION_KEY: undefined });
    vi.resetModules();
    const { encryptJson } = await import("@/lib/crypto/secrets");
    expect(() => encryptJson({ token: "x" })).toThrow(/APP_ENCRYPTION_KEY es obligatoria con DATABASE_URL/);
  });
});
