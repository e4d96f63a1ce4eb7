/** Spanish texts of the inbox's clocks: a customer's wait, first response, resolution (spread into es.ts). */
export const inboxClocksEs = {
  "clock.underMinute": "< 1 min",
  "clock.minutes": "{m} min",
  "clock.hours": "{h} h {m} min",
  "clock.days": "{d} d {h} h",
  "clock.waiting": "Esperando respuesta hace {span}",
  "clock.waitingAlert": "Esperando respuesta hace {span}: más que el aviso del equipo ({limit} min)",
  "clock.title": "Tiempos",
  "clock.firstResponse": "Primera respuesta",
  "clock.firstResponsePending": "Pendiente",
  "clock.resolution": "Resolución",
  "clock.openFor": "Abierta hace {span}",
  "clock.resolvedAt": "Resuelta el {when}",
} as const;
