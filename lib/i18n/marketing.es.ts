/** Spanish texts of the marketing opt-out (spread into es.ts). */
export const marketingEs = {
  "optOut.title": "Marketing",
  "optOut.subscribed": "Recibe plantillas de marketing.",
  "optOut.optedOut": "Dado de baja del marketing desde {when}",
  "optOut.reason.keyword": "escribió una palabra de baja (SALIR, STOP, BAJA…)",
  "optOut.reason.provider": "WhatsApp rechazó un envío: el cliente detuvo las promociones (error 131050)",
  "optOut.reason.agent": "un agente lo dio de baja",
  "optOut.reason.import": "importado con la baja desde un CSV",
  "optOut.set": "Dar de baja del marketing",
  "optOut.clear": "Volver a enviarle marketing",
  "optOut.clearConfirm": "¿Seguro? Solo si el cliente pidió volver a recibir promociones.",
  "optOut.note": "Sin plantillas MARKETING; las UTILITY y las respuestas siguen llegando.",
  "optOut.badge": "Sin marketing",
  "optOut.audienceLeftOut":
    "{n, plural, one {# se dio de baja del marketing: una plantilla MARKETING no le llegará (se cuenta como rechazado).} other {# se dieron de baja del marketing: una plantilla MARKETING no les llegará (se cuentan como rechazados).}}",
  "contacts.export": "Exportar CSV",
  "inbox.customerId": "ID de cliente",
} as const;
