import type { historyLiveEs } from "./history-live.es";

export const historyLiveEn: Record<keyof typeof historyLiveEs, string> = {
  "conv.live.open": "Live",
  "conv.live.connecting": "Connecting…",
  "conv.live.down": "Live updates down",
  "conv.live.hint": "Today's messages and status changes show without reloading.",
};
