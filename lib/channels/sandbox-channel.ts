import { randomUUID } from "node:crypto";
import type { ChannelAdapter, ChannelNumber, StatusWalk } from "./types";

const WALK = ["sent", "delivered", "read"] as const;
/** The walk's next step from each status it may have stopped at. */
const NEXT_STEP: Record<string, number> = { SENDED: 0, SENT: 1, DELIVERED: 2 };
const timers = new Set<NodeJS.Timeout>();
let cancelled = false;

/**
 * The embedded channel: accepts every send with a fake wamid, then reports sent → delivered →
 * read one step apart through the status sink it is handed (the delivery module's status path,
 * the very one the Cloud API webhook uses). The walk lives in this process's timers; a walk that
 * a restart interrupted is handed back here by the worker (`reached` = where it stopped).
 */
export const sandboxAdapter: ChannelAdapter = {
  async sendTemplate() {
    return { ok: true, providerMessageId: `wamid.sandbox.${randomUUID()}` };
  },
  async sendMessage() {
    return { ok: true, providerMessageId: `wamid.sandbox.${randomUUID()}` };
  },
  async uploadMedia() {
    return { ok: true, id: `sandbox-media-${randomUUID()}` };
  },
  afterAccepted(number: ChannelNumber, providerMessageId: string, { report, stepMs = 1500, reached = "SENDED" }: StatusWalk) {
    const first = NEXT_STEP[reached];
    if (first === undefined) return;
    const step = (i: number) => {
      const t = setTimeout(async () => {
        timers.delete(t);
        try {
          await report(number, [
            { providerMessageId, status: WALK[i], timestamp: Math.floor(Date.now() / 1000), raw: { sandbox: true, status: WALK[i] } },
          ]);
        } catch (err) {
          console.error("[sandbox] status walk failed", err);
        }
        if (i + 1 < WALK.length && !cancelled) step(i + 1);
      }, stepMs);
      t.unref?.();
      timers.add(t);
    };
    cancelled = false;
    step(first);
  },
};

/** Providers whose statuses are walked in-process (and must be resumed after a restart). */
export const WALKING_PROVIDERS = ["sandbox"];

/** Stops pending walks (worker shutdown, tests). */
export function cancelSandboxWalks() {
  cancelled = true;
  for (const t of timers) clearTimeout(t);
  timers.clear();
}
