CREATE TABLE "wa_number_secrets_version" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "wa_number_secrets_version_one_row" CHECK (id = 1)
);

--> statement-breakpoint
-- Hand-written: the one row, and the statement trigger that moves it with every change a webhook's
-- secret lookup depends on. UPDATE OF fires only when one of these columns is in the SET list, so
-- the send-slot updates of every send (next_send_at) pay nothing.
INSERT INTO "wa_number_secrets_version" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION wa_numbers_bump_secrets_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE wa_number_secrets_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER wa_numbers_secrets_version AFTER INSERT OR DELETE OR UPDATE OF credentials, provider, phone_number_id ON wa_numbers
  FOR EACH STATEMENT EXECUTE FUNCTION wa_numbers_bump_secrets_version();
--> statement-breakpoint
CREATE TRIGGER wa_numbers_secrets_version_truncate AFTER TRUNCATE ON wa_numbers
  FOR EACH STATEMENT EXECUTE FUNCTION wa_numbers_bump_secrets_version();
