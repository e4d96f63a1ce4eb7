ALTER TABLE "wa_numbers" ADD COLUMN "verified_name" text;--> statement-breakpoint
ALTER TABLE "wa_numbers" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wa_numbers" ADD COLUMN "disabled_at" timestamp with time zone;