import "server-only";
import type { AuthContext } from "@/lib/auth/context";
import { mediaUrl } from "@/lib/media/paths";
import { enqueueAudience } from "./enqueue";
import { interruptedEnqueues, templateOfBroadcast } from "./repo";

/** How long an enqueue may go without a new message before the worker takes it over. */
export const RESUME_IDLE_MS = 60_000;

/**
 * Finishes the enqueue of broadcasts whose creating request died midway (a crash, a deploy): from
 * their committed cursor on, with the values the broadcast stored and as its creator (an agent, or
 * the API token's SYSTEM sender). Run by the delivery worker beside its sweep.
 */
export async function resumeInterrupted(teamIds?: number[], idleMs = RESUME_IDLE_MS): Promise<number> {
  const rows = await interruptedEnqueues(idleMs, 5, teamIds);
  for (const row of rows) {
    const template = await templateOfBroadcast(row);
    if (!template) continue;
    const ctx: AuthContext = {
      teamId: row.teamId,
      actor:
        row.createdByAgentId != null
          ? { kind: "agent", agentId: row.createdByAgentId, agentName: row.createdByAgentName ?? "", sessionId: 0 }
          : { kind: "token", tokenId: 0 },
    };
    const path = row.send.media_path;
    const media = path ? { path, url: /^https?:\/\//i.test(path) ? path : mediaUrl(path) } : null;
    await enqueueAudience(ctx, row, { number: { id: row.waNumberId }, template, media });
  }
  return rows.length;
}
