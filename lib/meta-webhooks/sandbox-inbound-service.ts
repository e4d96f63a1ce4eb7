import { getDb } from "@/db/client";
import { randomUUID } from "node:crypto";
import type { AuthContext } from "@/lib/auth/context";
import { withSecrets } from "@/lib/channels/credentials";
import { ApiError } from "@/lib/http/errors";
import { requireNumber } from "@/lib/numbers/service";
import { sanitizeNumber } from "@/lib/phone";
import { ingestInbound } from "./inbound";
import { providerIdByUpdateId } from "./repo";
import type { SandboxInboundInput } from "./schemas";

export const SANDBOX_ONLY = "Solo se pueden simular mensajes entrantes en números sandbox.";
export const CONTEXT_NOT_FOUND = "El mensaje indicado en context_update_id no existe.";

/**
 * Injects a customer message into a sandbox number through the same inbound path as Cloud API
 * webhooks: stored, contact refreshed, routed, and the routed target's outgoing webhook queued.
 */
export async function injectSandboxInbound({ ctx, input }: { ctx: AuthContext; input: SandboxInboundInput }) {
  const row = await requireNumber(ctx, input.wa_number);
  if (row.provider !== "sandbox") throw ApiError.invalid("wa_number", SANDBOX_ONLY);
  let contextId: string | null = null;
  if (input.context_update_id) {
    const quoted = await providerIdByUpdateId(await getDb(), { teamId: ctx.teamId, waNumberId: row.id, updateId: input.context_update_id });
    if (!quoted) throw ApiError.invalid("context_update_id", CONTEXT_NOT_FOUND);
    contextId = quoted.providerMessageId;
  }
  const [stored] = await ingestInbound(withSecrets(row), [
    {
      providerMessageId: `wamid.sandbox.in.${randomUUID()}`,
      from: sanitizeNumber(input.from),
      profileName: input.profile_name ?? null,
      timestamp: Math.floor(Date.now() / 1000),
      type: input.type,
      payload: input.payload,
      contextId,
    },
  ]);
  return {
    update_id: stored.message.updateId,
    reply_to_update_id: stored.replyTo?.updateId ?? null,
    routed_to: stored.message.routedTo ?? null,
  };
}
