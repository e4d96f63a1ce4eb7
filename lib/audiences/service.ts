import "server-only";
import { getDb, withReadDb, type DbOrTx } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError, type FieldErrors } from "@/lib/http/errors";
import { countAudience, foreignLabelIds, selectAudienceContacts } from "./repo";
import { AUDIENCE_LABEL_NOT_FOUND, type Audience } from "./schemas";

export { selectAudienceContacts };

type FieldNames = { labels_any: string; labels_all: string; labels_exclude: string };
/** How a rule inside a request body names its fields in a 422 (`errors["audience.labels_any"]`). */
export const AUDIENCE_BODY_FIELDS: FieldNames = {
  labels_any: "audience.labels_any",
  labels_all: "audience.labels_all",
  labels_exclude: "audience.labels_exclude",
};

/**
 * 422 unless every label of the rule is the team's: another team's label answers like a missing
 * one, keyed by the list that holds it. Broadcasts call it with AUDIENCE_BODY_FIELDS (and `tx`).
 */
export async function checkAudienceLabels(teamId: number, audience: Audience, fields: FieldNames = AUDIENCE_BODY_FIELDS, tx?: DbOrTx) {
  const all = [...new Set([...audience.labels_any, ...audience.labels_all, ...audience.labels_exclude])];
  const foreign = await foreignLabelIds(tx ?? (await getDb()), { teamId, labelIds: all });
  if (!foreign.size) return;
  const errors: FieldErrors = {};
  for (const key of ["labels_any", "labels_all", "labels_exclude"] as const) {
    if (audience[key].some((id) => foreign.has(id))) errors[fields[key]] = [AUDIENCE_LABEL_NOT_FOUND];
  }
  throw new ApiError(422, AUDIENCE_LABEL_NOT_FOUND, errors);
}

/** GET /api/v1/audiences/size. */
export async function sizeAudience({ ctx, input }: { ctx: AuthContext; input: Audience }): Promise<{ size: number; opted_out: number }> {
  await checkAudienceLabels(ctx.teamId, input, { labels_any: "any", labels_all: "all", labels_exclude: "exclude" });
  // A count may be a moment behind: it reads from the replica when there is one.
  const { size, optedOut } = await withReadDb(ctx.teamId, (db) => countAudience(db, { teamId: ctx.teamId, audience: input }));
  return { size, opted_out: optedOut };
}
