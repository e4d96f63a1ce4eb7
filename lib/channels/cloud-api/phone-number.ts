import { z } from "zod";
import type { ChannelNumber } from "../types";
import { graphFetch, type GraphSettings } from "./client";

/** The fields the number check asks Meta for (GET /{phone-number-id}?fields=…). */
export const PHONE_NUMBER_FIELDS = "display_phone_number,verified_name,quality_rating,messaging_limit_tier";

/** Meta's answer, parsed before it is read (untrusted JSON); fields Meta leaves out stay null. */
const phoneNumberSchema = z.looseObject({
  id: z.string().optional(),
  display_phone_number: z.string().optional(),
  verified_name: z.string().optional(),
  quality_rating: z.string().optional(),
  messaging_limit_tier: z.string().optional(),
});

export type GraphPhoneNumber = {
  displayPhoneNumber: string | null;
  verifiedName: string | null;
  qualityRating: string | null;
  messagingLimitTier: string | null;
};

/** Meta's error as it answered it (`{"error":{message,type,code,error_subcode,fbtrace_id}}`), or why Meta was not reached. */
export type GraphCheckError = {
  kind: "meta" | "network" | "timeout" | "invalid";
  code: number | null;
  subcode: number | null;
  type: string | null;
  message: string;
  fbtraceId: string | null;
};

/**
 * Asks Meta for the number with its own token: the business name customers see, the number as
 * Meta writes it, its quality rating and messaging limit. One call, never retried (an agent
 * pressed a button and waits); the caller stores what came back.
 */
export async function fetchPhoneNumber(
  graph: GraphSettings,
  number: ChannelNumber,
): Promise<{ ok: true; phone: GraphPhoneNumber } | { ok: false; error: GraphCheckError }> {
  const res = await graphFetch<unknown>(graph, number, `${encodeURIComponent(number.phoneNumberId ?? "")}?fields=${PHONE_NUMBER_FIELDS}`);
  if (!res.ok) {
    const { code, title } = res.error;
    const kind = res.meta ? "meta" : title === "Timeout" ? "timeout" : title.startsWith("Network error") ? "network" : "invalid";
    return {
      ok: false,
      error: {
        kind,
        code,
        subcode: res.meta?.subcode ?? null,
        type: res.meta?.type ?? null,
        message: title,
        fbtraceId: res.meta?.fbtraceId ?? null,
      },
    };
  }
  const parsed = phoneNumberSchema.safeParse(res.body);
  if (!parsed.success) {
    return {
      ok: false,
      error: { kind: "invalid", code: null, subcode: null, type: null, message: "Graph API answered an unexpected shape", fbtraceId: null },
    };
  }
  const p = parsed.data;
  return {
    ok: true,
    phone: {
      displayPhoneNumber: p.display_phone_number ?? null,
      verifiedName: p.verified_name ?? null,
      qualityRating: p.quality_rating ?? null,
      messagingLimitTier: p.messaging_limit_tier ?? null,
    },
  };
}
