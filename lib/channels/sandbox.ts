import { randomUUID } from "node:crypto";
import type { ChannelAdapter, ChannelNumber } from "./types";
import { applyStatusUpdates } from "@/lib/delivery/status";

const WALK = ["sent", "delivered", "read"] as const;
const timers = new Set<NodeJS.Timeout>();
let cancelled = false;

/**
 * The embedded channel: accepts every send with a fake wamid, then reports sent → delivered →
 * read one step apart through `applyStatusUpdates`, the very function the Cloud API webhook
 * uses. The walk lives in this process's timers: a restart mid-walk leaves the message at its
 * last status (acceptable for a demo channel; nothing is lost that a customer could see).
 */
export const sandboxAdapter: ChannelAdapter = {
  async sendTemplate() {
    return { ok: true, providerMessageId: `wamid.sandbox.${randomUUID()}` };
  },
  async uploadMedia() {
    return { ok: true, id: `sandbox-media-${randomUUID()}` };
  },
  afterAccepted(number: ChannelNumber, providerMessageId: string, stepMs = 1500) {
    const step = (i: number) => {
      const t = setTimeout(async () => {
        timers.delete(t);
        try {
          await applyStatusUpdates(number, [
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
    step(0);
  },
};

/** Stops pending walks (worker shutdown, tests). */
export function cancelSandboxWalks() {
  cancelled = true;
  for (const t of timers) clearTimeout(t);
  timers.clear();
}
