import "server-only";
import { transaction } from "@/db/client";
import type { ParsedAccountChange } from "@/lib/channels/cloud-api/account-webhook";
import type { ChannelNumber } from "@/lib/channels/types";
import { applyNumberHealth } from "@/lib/numbers/health";
import { applyTemplateUpdate } from "@/lib/templates/meta-updates";
import { deadLetter, isTransientDbError, reasonOfError } from "./dead-letters";
import type { DeadLetterInput } from "./dead-letters-repo";
import { cloudSecrets, effectiveAppSecret } from "./secrets";

/**
 * The business account's changes of one signed batch (templates, number health), each applied at
 * once in its own short transaction (docs/features/templates-and-number-health.md). A change is
 * only accepted for the account's numbers whose own app secret signed the batch, like messages
 * (whatsapp-service.ts): one tenant's Meta app never writes into another tenant's templates. A
 * change for an account that is none of ours is `ignored`; one that failed its schema, names a
 * template or number we do not have, or fails its own transaction is set aside as a dead letter
 * with its reason, and its neighbours are applied. Only a failure of the database itself is
 * returned as `transient` (the batch answers 500 and Meta redelivers; what was applied is then
 * unchanged, so nothing is applied twice).
 */
export async function applyAccountChanges(
  changes: ParsedAccountChange[],
  signer: string,
): Promise<{ updates: number; ignored: number; dead: DeadLetterInput[]; transient?: unknown }> {
  const out: { updates: number; ignored: number; dead: DeadLetterInput[]; transient?: unknown } = { updates: 0, ignored: 0, dead: [] };
  const nowhere = { teamId: null, waNumberId: null };
  for (const change of changes) {
    const numbers = await accountNumbers(change.wabaId, signer);
    if (!numbers.length) {
      out.ignored++;
      if (change.rejected !== undefined) out.dead.push(deadLetter(nowhere, change.rejected, change.raw));
      continue;
    }
    // A business account's numbers normally belong to one team; each team is applied on its own.
    const teams = new Map<number, ChannelNumber[]>();
    for (const n of numbers) teams.set(n.teamId, [...(teams.get(n.teamId) ?? []), n]);
    for (const [teamId, own] of teams) {
      const at = { teamId, waNumberId: own.length === 1 ? own[0].id : null };
      if (change.rejected !== undefined) {
        out.dead.push(deadLetter(at, change.rejected, change.raw));
        continue;
      }
      const update = change.update;
      const meta = { at: change.metaAt === null ? null : new Date(change.metaAt * 1000), raw: change.raw };
      try {
        const outcome = await transaction((tx) =>
          update.kind === "number_quality" || update.kind === "account"
            ? applyNumberHealth(tx, { teamId, numbers: own.map((n) => ({ id: n.id, number: n.number })) }, update, meta)
            : applyTemplateUpdate(tx, { teamId, waNumberIds: own.map((n) => n.id) }, update, meta),
        );
        if (outcome === "applied") out.updates++;
        else if (outcome !== "unchanged") out.dead.push(deadLetter(at, outcome.setAside, change.raw));
      } catch (err) {
        if (isTransientDbError(err)) out.transient ??= err;
        else out.dead.push(deadLetter(at, reasonOfError(change.field, err), change.raw));
      }
    }
  }
  return out;
}

/** The Cloud API numbers of a business account signed by `signer`, from the secrets cache (one fresh look when none). */
async function accountNumbers(wabaId: string, signer: string): Promise<ChannelNumber[]> {
  const find = (list: ChannelNumber[]) => list.filter((n) => n.businessAccountId === wabaId && effectiveAppSecret(n) === signer);
  const cached = find(await cloudSecrets());
  return cached.length ? cached : find(await cloudSecrets(true));
}
