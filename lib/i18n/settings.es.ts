/** Spanish strings of the settings' frame (spread into es.ts); each section keeps its own file. */
export const settingsEs = {
  "nav.settings": "Ajustes",
  "settings.title": "Ajustes",
  "settings.sections": "Secciones de ajustes",
  "settings.none": "Tu rol no tiene ajustes que cambiar.",
  "settings.team": "Equipo",
  "team.title": "Ajustes del equipo",
  "team.intro": "Lo que siguen las pantallas de todos los agentes del equipo.",
  "team.country": "País por defecto",
  "team.countryHint": "Un número escrito sin código de país en el panel se envía con el de este país. Sin país, se rechaza.",
  "team.countryNone": "Ninguno (el número debe llevar su código)",
  "team.replyAssigns": "Responder asigna la conversación",
  "team.replyAssignsHint": "Quien responde a una conversación sin asignar desde la bandeja pasa a tenerla asignada.",
  "team.waitingAlert": "Aviso de espera (minutos)",
  "team.waitingAlertHint":
    "En la bandeja, la espera de un cliente sin respuesta se marca en color de alerta pasados estos minutos (1 a 1440).",
  "team.save": "Guardar",
  "team.saved": "Ajustes guardados.",
} as const;
