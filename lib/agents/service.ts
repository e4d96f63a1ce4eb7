import "server-only";
import { getDb, transaction, type Tx } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { actingRole, isRole, type Role } from "@/lib/auth/permissions";
import { ApiError } from "@/lib/http/errors";
import { recordCallerAudit } from "@/lib/audit/service";
import { AGENT_DEACTIVATED_REASON, endAgentSessions } from "@/lib/auth/session-repo";
import { unassignAgentConversations } from "@/lib/conversations/service";
import { checkNow } from "@/lib/events/stream-registry";
import { listTeamAgentRows, lockTeamAgentRow, lockTeamOwners, setAgentDeactivated, setAgentRole, type TeamAgentRow } from "./repo";
import {
  AGENT_NOT_FOUND,
  LAST_OWNER,
  LAST_OWNER_DEACTIVATE,
  NOT_YOURSELF,
  OWNER_ONLY,
  OWNER_ONLY_ACTIVE,
  type TeamAgentDto,
  type UpdateAgentInput,
} from "./schemas";

function toDto(row: TeamAgentRow): TeamAgentDto {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    // A role outside the table (a hand-written UPDATE) grants nothing; it shows as the least one.
    role: isRole(row.role) ? row.role : "agent",
    last_sign_in_at: row.lastSignInAt ? row.lastSignInAt.toISOString() : null,
    active: row.active,
    deactivated_at: row.deactivatedAt ? row.deactivatedAt.toISOString() : null,
  };
}

export async function listAgents({ ctx }: { ctx: AuthContext }): Promise<TeamAgentDto[]> {
  return (await listTeamAgentRows(await getDb(), ctx.teamId)).map(toDto);
}

/**
 * Changes an agent's role, deactivates or reactivates it (docs/roles.md, docs/features/agents.md),
 * in one transaction under a lock on the team's owners. Only an owner may grant `owner`, take it
 * away, or (de)activate an owner; the team's last active owner keeps the role and stays active
 * (409); nobody deactivates themself.
 */
export async function updateAgent({ ctx, input }: { ctx: AuthContext; input: { agentId: number; changes: UpdateAgentInput } }) {
  const caller = actingRole(ctx);
  const { role, active } = input.changes;
  let deactivated = false;
  const dto = await transaction(async (tx) => {
    const activeOwners = await lockTeamOwners(tx, ctx.teamId);
    const target = await lockTeamAgentRow(tx, { teamId: ctx.teamId, agentId: input.agentId });
    if (!target) throw ApiError.notFound(AGENT_NOT_FOUND);
    let row = target;
    if (role !== undefined) row = await changeRole(tx, ctx, { caller, target: row, role, activeOwners });
    if (active !== undefined && active === !!row.deactivatedAt) {
      if (row.role === "owner" && caller !== "owner") throw ApiError.forbidden(OWNER_ONLY_ACTIVE);
      row = active ? await reactivate(tx, ctx, row) : await deactivate(tx, ctx, { target: row, activeOwners });
      deactivated = !active;
    }
    return toDto(row);
  });
  // This process's streams of the agent end now; other processes' at their next credential check
  // (lib/events/stream-registry.ts, every 500 ms), which reads the sessions ended above.
  if (deactivated) void checkNow();
  return dto;
}

async function changeRole(
  tx: Tx,
  ctx: AuthContext,
  { caller, target, role, activeOwners }: { caller: Role; target: TeamAgentRow; role: Role; activeOwners: number[] },
): Promise<TeamAgentRow> {
  const touchesOwner = role === "owner" || target.role === "owner";
  if (touchesOwner && caller !== "owner") throw ApiError.forbidden(OWNER_ONLY);
  const lastActiveOwner = activeOwners.length <= 1 && activeOwners.includes(target.id);
  if (target.role === "owner" && role !== "owner" && lastActiveOwner) throw ApiError.conflict(LAST_OWNER);
  if (target.role === role) return target;
  await setAgentRole(tx, { teamId: ctx.teamId, agentId: target.id, role });
  await recordCallerAudit(tx, ctx, {
    action: "agent.role_changed",
    target: { kind: "agent", id: target.id, name: target.name },
    before: { role: target.role },
    after: { role },
  });
  return { ...target, role };
}

/**
 * Deactivation, all in the caller's transaction: the agent's column, its sessions ended (their
 * next request is told why, their streams end), its open conversations unassigned with their
 * events. Its name stays on everything it wrote (messages and notes keep their sender).
 */
async function deactivate(tx: Tx, ctx: AuthContext, { target, activeOwners }: { target: TeamAgentRow; activeOwners: number[] }) {
  if (ctx.actor.kind === "agent" && ctx.actor.agentId === target.id) throw ApiError.forbidden(NOT_YOURSELF);
  if (target.role === "owner" && activeOwners.length <= 1 && activeOwners.includes(target.id)) {
    throw ApiError.conflict(LAST_OWNER_DEACTIVATE);
  }
  const deactivatedAt = await setAgentDeactivated(tx, { teamId: ctx.teamId, agentId: target.id, deactivated: true });
  const sessions = await endAgentSessions(tx, { teamId: ctx.teamId, agentId: target.id, reason: AGENT_DEACTIVATED_REASON });
  const conversations = await unassignAgentConversations(tx, { teamId: ctx.teamId, agentId: target.id });
  await recordCallerAudit(tx, ctx, {
    action: "agent.deactivated",
    target: { kind: "agent", id: target.id, name: target.name },
    before: { status: "active", sessions_open: sessions, conversations_assigned_open: conversations },
    after: { status: "deactivated", sessions_open: 0, conversations_assigned_open: 0 },
  });
  return { ...target, deactivatedAt, active: false };
}

async function reactivate(tx: Tx, ctx: AuthContext, target: TeamAgentRow) {
  await setAgentDeactivated(tx, { teamId: ctx.teamId, agentId: target.id, deactivated: false });
  await recordCallerAudit(tx, ctx, {
    action: "agent.reactivated",
    target: { kind: "agent", id: target.id, name: target.name },
    before: { status: "deactivated" },
    after: { status: "active" },
  });
  return { ...target, deactivatedAt: null };
}
