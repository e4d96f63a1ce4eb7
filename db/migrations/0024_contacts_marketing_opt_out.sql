ALTER TABLE "contacts" ADD COLUMN "marketing_opted_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "marketing_opt_out_reason" text;