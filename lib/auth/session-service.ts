import { getDb } from "@/db/client";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { randomSecret } from "@/lib/crypto/hash";
import type { AuthContext } from "./context";
import { SESSION_COOKIE } from "./authenticate";
import { addressKey, failureLimitError, releaseFailure, reserveFailure } from "@/lib/rate-limit/failures";
import { gateAborted, gateFailed, gatePassed, openGate } from "./sign-in-throttle";
import { unmatchableHash, verifyPassword } from "./password";
import { hashToken } from "./tokens";
import { recordAudit, recordCallerAudit } from "@/lib/audit/service";
import { isRole, type Role } from "./permissions";
import { deleteSession, findAgentByEmail, findAgentById, openSession } from "./session-repo";
import { AGENT_DEACTIVATED, INVALID_CREDENTIALS, type AgentDto, type LoginRequest } from "./session-schemas";

// Unknown emails are checked against a hash no password matches, with the same parameters: both
// failures cost one scrypt, so response time does not reveal which emails exist.
const DUMMY_HASH = unmatchableHash();

/**
 * Checks the credentials and opens a session; returns the raw token (only its hash is stored).
 *
 * Throttled, never locked (docs/auth-limits.md): the sign-in delays (sign-in-throttle.ts, per
 * email and address and per email, the same for unknown emails as for known ones) answer 429 with
 * `Retry-After` while a delay runs, before any hash. An address the account has not signed in from
 * also takes a slot of its address's failure budget (`AUTH_FAILURES_PER_ADDRESS`, shared with the
 * webhooks); a known address is only ever slowed by its own failures. A wrong password is counted;
 * a right one forgets the failures and gives the address slot back; an attempt that could not be
 * checked (hash queue full, database error) gives back what it took.
 */
export async function login({ input, address }: { input: LoginRequest; address: string }) {
  const gate = await openGate(input.email, address);
  if (!gate.ok) throw failureLimitError(gate.retryAfter);
  const known = !gate.off && gate.known;
  const byAddress = known ? null : await reserveFailure(addressKey(address), config.authFailuresPerAddress);
  if (byAddress && !byAddress.ok) {
    await gateAborted(gate);
    throw failureLimitError(byAddress.retryAfter);
  }
  const addressSlot = byAddress?.slot ?? null;
  let agent: Awaited<ReturnType<typeof findAgentByEmail>>;
  let ok: boolean;
  try {
    agent = await findAgentByEmail(await getDb(), input.email);
    ok = await verifyPassword(input.password, agent?.passwordHash ?? DUMMY_HASH, { failFast: true, sharedBy: input.email });
  } catch (err) {
    await Promise.all([releaseFailure(addressSlot), gateAborted(gate)]);
    throw err;
  }
  if (!agent || !ok) {
    await gateFailed(gate);
    // A known account's failures go to its team's trail; an unknown address has no team to tell.
    if (agent) await auditSignIn(agent, address, "sign_in.failed");
    throw ApiError.invalid("email", INVALID_CREDENTIALS);
  }
  // Deactivated (docs/features/agents.md): said only after the right password, so the answer tells
  // no more than a successful sign-in would. Neither a failure nor a success for the delays.
  if (agent.deactivatedAt) {
    await Promise.all([releaseFailure(addressSlot), gateAborted(gate)]);
    await auditSignIn(agent, address, "sign_in.failed");
    throw new ApiError(401, AGENT_DEACTIVATED);
  }
  await Promise.all([releaseFailure(addressSlot), gatePassed(gate)]);
  return startSession({ agent, address });
}

/**
 * Opens a session for an agent whose identity is already proven (a right password, or the owner
 * the first-run set-up just created: lib/setup/service.ts) and records the sign-in; returns the
 * raw token for the cookie (only its hash is stored).
 */
export async function startSession({
  agent,
  address,
}: {
  agent: { id: number; name: string; email: string; teamId: number; role: string };
  address: string;
}): Promise<{ token: string; agent: AgentDto }> {
  const token = randomSecret(32);
  await openSession(await getDb(), {
    agentId: agent.id,
    teamId: agent.teamId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + config.sessionTtlSeconds * 1000),
    keep: config.sessionsPerAgent,
  });
  await auditSignIn(agent, address, "sign_in.succeeded");
  const dto: AgentDto = { id: agent.id, name: agent.name, email: agent.email, team_id: agent.teamId, role: roleOf(agent.role) };
  return { token, agent: dto };
}

async function auditSignIn(
  agent: { id: number; name: string; teamId: number },
  address: string,
  action: "sign_in.succeeded" | "sign_in.failed",
) {
  await recordAudit(await getDb(), {
    teamId: agent.teamId,
    actor: { kind: "agent", id: agent.id, name: agent.name },
    ip: address,
    action,
    target: { kind: "agent", id: agent.id, name: agent.name },
  });
}

export async function logout({ ctx }: { ctx: AuthContext }) {
  if (ctx.actor.kind !== "agent") return;
  const db = await getDb();
  await deleteSession(db, { teamId: ctx.teamId, sessionId: ctx.actor.sessionId });
  await recordCallerAudit(db, ctx, { action: "sign_out", target: { kind: "agent", id: ctx.actor.agentId, name: ctx.actor.agentName } });
}

/** The signed-in agent; a bearer token has no agent behind it (404). */
export async function me({ ctx }: { ctx: AuthContext }): Promise<AgentDto> {
  if (ctx.actor.kind !== "agent") throw ApiError.notFound("La solicitud no pertenece a una sesión de agente.");
  const row = await findAgentById(await getDb(), { teamId: ctx.teamId, agentId: ctx.actor.agentId });
  if (!row) throw ApiError.unauthenticated();
  return { id: row.id, name: row.name, email: row.email, team_id: row.teamId, role: roleOf(row.role) };
}

/** A role outside the table (a hand-written UPDATE) grants nothing (authorize refuses it); shown as the least one. */
function roleOf(role: string): Role {
  return isRole(role) ? role : "agent";
}

/** `Set-Cookie` for a session token; Secure only over https so plain-http localhost still works. */
export function sessionCookie(req: Request, token: string, maxAge = config.sessionTtlSeconds): string {
  const https = new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
  const parts = [`${SESSION_COOKIE}=${encodeURIComponent(token)}`, "HttpOnly", "SameSite=Lax", "Path=/", `Max-Age=${maxAge}`];
  if (https) parts.push("Secure");
  return parts.join("; ");
}
