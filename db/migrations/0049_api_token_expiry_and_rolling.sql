ALTER TABLE "api_tokens" ALTER COLUMN "scopes" SET DEFAULT array['send','history','contacts','broadcasts','inbox','reports','webhooks_admin','agents_admin','tokens_admin']::text[];--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "created_by_kind" text DEFAULT 'system' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "created_by_id" integer;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "created_by_name" text DEFAULT 'CLI' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "replaced_by_id" integer;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "overlap_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_replaced_by_id_api_tokens_id_fk" FOREIGN KEY ("replaced_by_id") REFERENCES "public"."api_tokens"("id") ON DELETE set null ON UPDATE no action;