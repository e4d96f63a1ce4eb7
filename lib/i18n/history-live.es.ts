/** Spanish texts of the conversation viewer's live line (spread into es.ts). */
export const historyLiveEs = {
  "conv.live.open": "En vivo",
  "conv.live.connecting": "Conectando…",
  "conv.live.down": "Sin conexión en vivo",
  "conv.live.hint": "Los mensajes y los cambios de estado de hoy aparecen sin recargar.",
} as const;
