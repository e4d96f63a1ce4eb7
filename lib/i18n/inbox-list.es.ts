/** Spanish texts of the inbox list's orders and the broadcast-opened filter (spread into es.ts). */
export const inboxListEs = {
  "inbox.outboundOnly": "Enviadas sin respuesta",
  "inbox.outboundOnlyHint": "Conversaciones que abrió una difusión o un envío y en las que el cliente aún no escribió.",
  "inbox.order": "Orden",
  "inbox.orderNewest": "Más recientes",
  "inbox.orderWaiting": "Esperando hace más",
  "inbox.waitingSince": "Espera desde {when}",
  "preview.image": "Imagen",
  "preview.video": "Video",
  "preview.audio": "Audio",
  "preview.document": "Documento",
  "preview.sticker": "Sticker",
  "preview.reaction": "Reacción",
  "preview.unsupported": "Mensaje no compatible",
  "preview.callsAccepted": "Llamadas permitidas",
  "preview.callsRejected": "Llamadas rechazadas",
} as const;
