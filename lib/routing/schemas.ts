import { z } from "@/lib/http/zod-es";

/** Where an inbound message was routed (a bot or a campaign) and why. */
export const routedToSchema = z
  .object({ kind: z.enum(["bot", "campaign"]), id: z.number().int().nullable(), reason: z.string() })
  .meta({ id: "RoutedTo" });
