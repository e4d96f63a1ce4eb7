import { bigint, check, pgTable, smallint } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/**
 * One row whose `version` goes up, in the same transaction, with every statement that inserts or
 * deletes numbers or changes their credentials, provider or phone_number_id (a statement trigger
 * on wa_numbers, in the migration). Each process caches the Cloud API numbers' decrypted webhook
 * secrets and rereads them only when this number moved (lib/meta-webhooks/secrets.ts): one primary-key
 * read instead of loading and decrypting every number's credentials.
 */
export const waNumberSecretsVersion = pgTable(
  "wa_number_secrets_version",
  {
    id: smallint("id").primaryKey().default(1),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  () => [check("wa_number_secrets_version_one_row", sql`id = 1`)],
);
