-- Team settings: the country whose calling code the send form puts before a number typed without
-- one (null: such a number is refused), and whether an agent's reply assigns an unassigned
-- conversation to that agent (docs/features/send-form.md, docs/features/inbox.md).
ALTER TABLE "teams" ADD COLUMN "default_country" text;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "reply_assigns" boolean DEFAULT true NOT NULL;