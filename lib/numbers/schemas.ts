import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";

export const waNumberSchema = z
  .object({
    id: z.number().int(),
    number: z.string(),
    display_name: z.string(),
    provider: z.enum(["sandbox", "cloud_api"]),
    messages_per_second: z.number().int(),
  })
  .meta({ id: "WaNumber" });
export type WaNumberDto = z.infer<typeof waNumberSchema>;

export const listWaNumbersQuery = pageQuery({ max: 100, fallback: 50 }).meta({ id: "ListWaNumbersQuery" });
export const listWaNumbersResponse = listResponse(waNumberSchema).meta({ id: "ListWaNumbersResponse" });
