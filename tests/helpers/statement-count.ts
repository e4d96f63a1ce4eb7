import { getDb } from "@/db/client";

type Logger = { logQuery(query: string, params: unknown[]): void };
type Session = { logger: Logger; options: { logger?: Logger }; transaction: (...args: unknown[]) => Promise<unknown> };

/**
 * What `fn` sends to the database through this process's drizzle handle: every statement, as
 * drizzle's logger sees it (the same on PGlite and postgres.js), and every transaction it opens
 * (each one more BEGIN and COMMIT, which drizzle does not log). A transaction's session is made
 * from the handle's options, so the logger set there counts inside transactions too. Nothing else
 * may use the handle meanwhile: call the service directly, not through the HTTP server.
 */
export async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[]; transactions: number }> {
  const db = await getDb();
  const session = (db as unknown as { session: Session }).session;
  const statements: string[] = [];
  let transactions = 0;
  const logger: Logger = { logQuery: (query) => statements.push(query.replace(/\s+/g, " ").trim()) };
  const saved = { logger: session.logger, optionsLogger: session.options.logger, transaction: session.transaction };
  session.logger = logger;
  session.options.logger = logger;
  session.transaction = function (this: Session, ...args: unknown[]) {
    transactions++;
    return saved.transaction.apply(this, args);
  };
  try {
    return { result: await fn(), statements, transactions };
  } finally {
    session.logger = saved.logger;
    session.options.logger = saved.optionsLogger;
    session.transaction = saved.transaction;
  }
}
