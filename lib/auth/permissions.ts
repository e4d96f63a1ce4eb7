import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "./context";

/**
 * Who may do what: the one table of roles (agents) and scopes (API tokens) behind every route of
 * /api/v1. Each route names one permission next to `withAuth` (lib/http/with-auth.ts); an agent
 * needs a role listed for it, a token any one of its scopes. docs/roles.md shows the same table
 * per operation, and tests/api/role-matrix.test.ts holds the two together.
 */
export const ROLES = ["owner", "admin", "supervisor", "agent"] as const;
export type Role = (typeof ROLES)[number];

export const SCOPES = [
  "send",
  "history",
  "contacts",
  "broadcasts",
  "inbox",
  "reports",
  "webhooks_admin",
  "agents_admin",
  "tokens_admin",
] as const;
export type Scope = (typeof SCOPES)[number];

const EVERYONE: readonly Role[] = ROLES;
/** The day-to-day work: everyone but the supervisor, who reads and changes nothing. */
const WORKERS: readonly Role[] = ["owner", "admin", "agent"];
/** Reads beyond the day-to-day work (settings, other agents). */
const OVERSEERS: readonly Role[] = ["owner", "admin", "supervisor"];
const ADMINS: readonly Role[] = ["owner", "admin"];

type Rule = { roles: readonly Role[]; scopes: readonly Scope[] };

export const PERMISSIONS = {
  /** The caller's own session (me, logout): anyone signed in, any token. */
  "session:self": { roles: EVERYONE, scopes: SCOPES },
  /** The team's settings every screen follows (default country, replying assigns): any caller. */
  "team:read": { roles: EVERYONE, scopes: SCOPES },
  /**
   * Changing those settings (the team's page under /settings): the workspace's administration,
   * beside its agents', since what they change is how the agents' screens behave.
   */
  "team:write": { roles: ADMINS, scopes: ["agents_admin"] },
  "history:read": { roles: EVERYONE, scopes: ["history"] },
  /** One sent message and its status: what a sender polls after a send. */
  "updates:read": { roles: EVERYONE, scopes: ["history", "send"] },
  "messages:send": { roles: WORKERS, scopes: ["send"] },
  "media:read": { roles: EVERYONE, scopes: ["send", "history", "broadcasts"] },
  "media:write": { roles: WORKERS, scopes: ["send", "broadcasts"] },
  "templates:read": { roles: EVERYONE, scopes: ["send", "broadcasts", "history"] },
  /**
   * Syncing the team's templates with Meta's lists (lib/templates/sync-service.ts), and creating and
   * deleting them (lib/templates/editor-service.ts): the account's administration.
   */
  "templates:write": { roles: ADMINS, scopes: ["webhooks_admin"] },
  "numbers:read": { roles: EVERYONE, scopes: ["send", "broadcasts", "history"] },
  /**
   * The team's numbers as settings (docs/features/numbers.md): add, change, switch off and check
   * them with Meta, and read their Meta set-up (ids, webhook verify token). Beside the webhooks'
   * set-up, hence that scope.
   */
  "numbers:admin": { roles: ADMINS, scopes: ["webhooks_admin"] },
  "routing:read": { roles: EVERYONE, scopes: ["send", "broadcasts", "webhooks_admin"] },
  /**
   * Bots and campaigns as settings (docs/features/routing.md): create, change, delete them, rotate
   * their webhook secrets, read their webhook URLs and try the routing. Beside the webhooks' set-up,
   * whose targets they are, hence that scope.
   */
  "routing:admin": { roles: ADMINS, scopes: ["webhooks_admin"] },
  "sandbox:write": { roles: WORKERS, scopes: ["send"] },
  "conversations:read": { roles: EVERYONE, scopes: ["history"] },
  "conversations:write": { roles: WORKERS, scopes: ["inbox"] },
  "saved_replies:read": { roles: EVERYONE, scopes: ["inbox"] },
  "saved_replies:write": { roles: WORKERS, scopes: ["inbox"] },
  "events:read": { roles: EVERYONE, scopes: ["history"] },
  "contacts:read": { roles: EVERYONE, scopes: ["contacts"] },
  "contacts:write": { roles: WORKERS, scopes: ["contacts"] },
  "labels:read": { roles: EVERYONE, scopes: ["contacts"] },
  "labels:write": { roles: WORKERS, scopes: ["contacts"] },
  "audiences:read": { roles: EVERYONE, scopes: ["contacts", "broadcasts"] },
  "broadcasts:read": { roles: EVERYONE, scopes: ["broadcasts"] },
  "broadcasts:write": { roles: WORKERS, scopes: ["broadcasts"] },
  "stats:read": { roles: EVERYONE, scopes: ["history", "reports"] },
  "reports:read": { roles: EVERYONE, scopes: ["reports"] },
  "webhooks:read": { roles: OVERSEERS, scopes: ["webhooks_admin"] },
  /** The team's webhook endpoints (lib/webhook-endpoints): create, change, roll their secrets, resend deliveries. */
  "webhooks:write": { roles: ADMINS, scopes: ["webhooks_admin"] },
  "agents:read": { roles: OVERSEERS, scopes: ["agents_admin"] },
  "agents:write": { roles: ADMINS, scopes: ["agents_admin"] },
  /** The audit trail (lib/audit): who changed what, read like the team's agents. */
  "audit:read": { roles: OVERSEERS, scopes: ["agents_admin"] },
  /**
   * The team's API tokens (lib/api-tokens): its own scope, so a job that rolls its own token needs
   * no power over agents; a token never makes one with a scope it lacks (docs/roles.md).
   */
  "tokens:read": { roles: OVERSEERS, scopes: ["tokens_admin"] },
  "tokens:write": { roles: ADMINS, scopes: ["tokens_admin"] },
} as const satisfies Record<string, Rule>;

export type Permission = keyof typeof PERMISSIONS;

export const ROLE_REFUSED = "Tu rol no permite esta acción.";
export const scopeRefused = (scopes: readonly string[]) => `El token no tiene el permiso necesario: ${scopes.join(" o ")}.`;

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function isScope(value: unknown): value is Scope {
  return typeof value === "string" && (SCOPES as readonly string[]).includes(value);
}

/** Whether this role or these scopes grant the permission (the table above, nothing else). */
export function allows(who: { role: Role } | { scopes: readonly string[] }, need: Permission): boolean {
  const rule: Rule = PERMISSIONS[need];
  if ("role" in who) return rule.roles.includes(who.role);
  return rule.scopes.some((s) => who.scopes.includes(s));
}

/** Throws the 403 of a caller the permission is not granted to. */
export function authorize(ctx: AuthContext, need: Permission): void {
  const { actor } = ctx;
  if (actor.kind === "agent") {
    if (!actor.role || !allows({ role: actor.role }, need)) throw ApiError.forbidden(ROLE_REFUSED);
  } else if (!actor.scopes || !allows({ scopes: actor.scopes }, need)) {
    throw ApiError.forbidden(scopeRefused(PERMISSIONS[need].scopes));
  }
}

/**
 * The role a caller acts with where a role decides more than the route (who may grant `owner`):
 * an agent its own; a token with the scope of the permission acts as an admin, never an owner.
 */
export function actingRole(ctx: AuthContext): Role {
  if (ctx.actor.kind === "token") return "admin";
  if (!ctx.actor.role) throw ApiError.forbidden(ROLE_REFUSED);
  return ctx.actor.role;
}
