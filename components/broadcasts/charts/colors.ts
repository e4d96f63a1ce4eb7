/** One colour per stage, the same in both charts; each reads at 3:1 or more against white (WCAG 1.4.11). */
export const STAGE_COLORS = {
  queued: "#64748b",
  sent: "#0369a1",
  delivered: "#0f766e",
  read: "#047857",
  replied: "#6d28d9",
  failed: "#b91c1c",
} as const;
