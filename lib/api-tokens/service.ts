import "server-only";
import { getDb, transaction } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { isScope, type Scope } from "@/lib/auth/permissions";
import { revokeToken } from "@/lib/auth/repo";
import { changingToken, mintToken } from "@/lib/auth/tokens";
import { tokenEnd } from "@/lib/auth/token-validity";
import { recordCallerAudit } from "@/lib/audit/service";
import { ApiError } from "@/lib/http/errors";
import { findTeamTokenRow, listTeamTokenRows, lockTeamTokenRow, markTokenRolled, type TeamTokenRow } from "./repo";
import {
  outlivesCaller,
  scopesNotHeld,
  TOKEN_ALREADY_ROLLED,
  TOKEN_EXPIRED,
  TOKEN_NOT_FOUND,
  TOKEN_REVOKED,
  type ApiTokenDto,
  type CreatedTokenDto,
  type CreateTokenInput,
  type RollTokenInput,
  type TokenState,
} from "./schemas";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function stateOf(row: TeamTokenRow, now: number): TokenState {
  if (row.revokedAt) return "revoked";
  const end = tokenEnd(row, now);
  if (end) return end.kind;
  return row.overlapEndsAt ? "rolling" : "active";
}

function toDto(row: TeamTokenRow, now = Date.now()): ApiTokenDto {
  const kind = row.createdByKind === "agent" || row.createdByKind === "token" ? row.createdByKind : "system";
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    // A scope the table no longer knows (a hand-written UPDATE) grants nothing and is not shown.
    scopes: row.scopes.filter(isScope),
    created_at: row.createdAt.toISOString(),
    created_by: { kind, id: row.createdById, name: row.createdByName },
    last_used_at: iso(row.lastUsedAt),
    expires_at: iso(row.expiresAt),
    revoked_at: iso(row.revokedAt),
    replaced_by: row.replacedById,
    overlap_ends_at: iso(row.overlapEndsAt),
    state: stateOf(row, now),
  };
}

type Creator = {
  createdByKind: "agent" | "token";
  createdById: number;
  createdByName: string;
  /** A calling token's own expiry (null: it never expires, or the caller is an agent). */
  expiresAt: Date | null;
};

/** Who makes a token, as its `created_by` keeps it: the agent, or the calling token by its name. */
async function creatorOf(ctx: AuthContext): Promise<Creator> {
  if (ctx.actor.kind === "agent") {
    return { createdByKind: "agent", createdById: ctx.actor.agentId, createdByName: ctx.actor.agentName, expiresAt: null };
  }
  const id = ctx.actor.tokenId;
  const caller = await findTeamTokenRow(await getDb(), { teamId: ctx.teamId, id });
  return { createdByKind: "token", createdById: id, createdByName: caller?.name ?? `token #${id}`, expiresAt: caller?.expiresAt ?? null };
}

/**
 * A token may hand on only what it holds itself: its scopes, and no longer a life than its own
 * (for a creation and for a roll alike). An agent's role already decided (tokens:write).
 */
function requireHeld(ctx: AuthContext, creator: Creator, wanted: { scopes: readonly string[]; expiresAt: Date | null }) {
  if (ctx.actor.kind !== "token") return;
  const held = ctx.actor.scopes ?? [];
  const missing = wanted.scopes.filter((s) => !held.includes(s));
  if (missing.length) throw ApiError.forbidden(scopesNotHeld(missing));
  const own = creator.expiresAt;
  if (own && (!wanted.expiresAt || wanted.expiresAt > own)) throw ApiError.forbidden(outlivesCaller(own));
}

/** The token row's creator columns. */
const createdBy = ({ createdByKind, createdById, createdByName }: Creator) => ({ createdByKind, createdById, createdByName });

export async function listTokens({ ctx }: { ctx: AuthContext }): Promise<ApiTokenDto[]> {
  const now = Date.now();
  return (await listTeamTokenRows(await getDb(), ctx.teamId)).map((r) => toDto(r, now));
}

/** A new token of the caller's team; its secret is in this answer and nowhere else. */
export async function createApiToken({ ctx, input }: { ctx: AuthContext; input: CreateTokenInput }): Promise<CreatedTokenDto> {
  const scopes: Scope[] = input.scopes;
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  const creator = await creatorOf(ctx);
  requireHeld(ctx, creator, { scopes, expiresAt });
  return transaction(async (tx) => {
    const { id, token } = await mintToken(tx, { teamId: ctx.teamId, name: input.name, scopes, expiresAt, ...createdBy(creator) });
    await recordCallerAudit(tx, ctx, {
      action: "token.created",
      target: { kind: "token", id, name: input.name },
      after: { name: input.name, scopes, expires_at: iso(expiresAt), token: "set" },
    });
    const row = await findTeamTokenRow(tx, { teamId: ctx.teamId, id });
    return { secret: token, token: toDto(row!) };
  });
}

/**
 * Revokes a token of the team: refused from its next request on, in every process, and its open
 * event streams end within a second (changingToken, lib/auth/tokens.ts). Revoking it again
 * changes nothing and records nothing. Any caller with tokens:write may revoke any token of the
 * team, whatever its scopes: taking power away is never a way to gain it.
 */
export async function revokeApiToken({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<ApiTokenDto> {
  return changingToken(input.id, async (tx) => {
    const row = await lockTeamTokenRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!row) throw ApiError.notFound(TOKEN_NOT_FOUND);
    if (row.revokedAt) return toDto(row);
    const revokedAt = (await revokeToken(tx, { id: row.id, teamId: ctx.teamId }))?.revokedAt ?? null;
    await recordCallerAudit(tx, ctx, {
      action: "token.revoked",
      target: { kind: "token", id: row.id, name: row.name },
      before: { revoked_at: null },
      after: { revoked_at: iso(revokedAt) },
    });
    return toDto({ ...row, revokedAt });
  });
}

/**
 * Rolls a token (Stripe's "roll key"): a new one with the same name, scopes and expiry, its secret
 * in this answer only; the old one keeps working `overlap_hours` more, then is refused (0: revoked
 * at once). A token rolls only what it could have made: tokens whose scopes it holds, that
 * expire no later than it does.
 */
export async function rollApiToken({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { id: number; changes: RollTokenInput };
}): Promise<CreatedTokenDto & { previous: ApiTokenDto }> {
  const overlapHours = input.changes.overlap_hours;
  const creator = await creatorOf(ctx);
  return changingToken(input.id, async (tx) => {
    const old = await lockTeamTokenRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!old) throw ApiError.notFound(TOKEN_NOT_FOUND);
    if (old.revokedAt) throw ApiError.conflict(TOKEN_REVOKED);
    if (old.replacedById !== null || old.overlapEndsAt !== null) throw ApiError.conflict(TOKEN_ALREADY_ROLLED);
    if (tokenEnd(old, Date.now())) throw ApiError.conflict(TOKEN_EXPIRED);
    const scopes = old.scopes.filter(isScope);
    requireHeld(ctx, creator, { scopes, expiresAt: old.expiresAt });
    const { id, token } = await mintToken(tx, {
      teamId: ctx.teamId,
      name: old.name,
      scopes,
      expiresAt: old.expiresAt,
      ...createdBy(creator),
    });
    const previous = await markTokenRolled(tx, { teamId: ctx.teamId, id: old.id, successorId: id, overlapHours });
    await recordCallerAudit(tx, ctx, {
      action: "token.rolled",
      target: { kind: "token", id: old.id, name: old.name },
      before: { replaced_by: null, overlap_ends_at: null },
      after: { replaced_by: id, overlap_hours: overlapHours, overlap_ends_at: iso(previous.overlapEndsAt), token: "set" },
    });
    const row = await findTeamTokenRow(tx, { teamId: ctx.teamId, id });
    return { secret: token, token: toDto(row!), previous: toDto(previous) };
  });
}
