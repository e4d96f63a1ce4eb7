import type { MessageKey, Translate } from "@/lib/i18n";

/**
 * The send form's errors in the UI's language, naming the field the agent sees. The API answers
 * with the contract's exact Spanish texts, keyed by the request's paths (`body_params.1.value`);
 * the browser-side check uses the same zod schema, hence the same texts. Each known text is
 * recognised here, put beside its input and worded for the UI ("Cuerpo {{2}}: obligatorio" /
 * "Body {{2}}: required"). tests/api/send-errors.test.ts feeds it the server's own constants,
 * so a changed text fails there rather than silently falling back.
 */

/** What the form shows: which inputs there are, and each input's visible label. */
export type SendFormShape = {
  /** The body keys in the order of the form's `body_params` inputs. */
  bodyKeys: string[];
  /** The button indexes in the order of the form's `button_params` inputs. */
  buttonIndexes: number[];
  hasHeaderInput: boolean;
  hasAttachment: boolean;
  /** The visible label of a form path (`body_params.1.value` → "Cuerpo {{2}}"). */
  label: (path: string) => string;
};

export type PlacedError = { field: string | null; message: string };

type Rule = { re: RegExp; field?: (m: RegExpMatchArray, shape: SendFormShape) => string | null; say: (m: RegExpMatchArray) => Said };
type Said = { key: MessageKey; vars?: Record<string, string | number> };

const RULES: Rule[] = [
  { re: /^El campo \S+ es obligatorio\.$/, say: () => ({ key: "sendError.required" }) },
  { re: /^El campo \S+ no puede tener más de (\d+) caracteres\.$/, say: (m) => ({ key: "sendError.tooLong", vars: { max: m[1] } }) },
  { re: /^El campo \S+ debe ser un número entero\.$/, say: () => ({ key: "sendError.invalid" }) },
  { re: /^El campo destination debe ser un número de teléfono válido/, say: () => ({ key: "sendError.phone" }) },
  // The form's own checks of a typed number (lib/phone-country.ts) and the server's opt-out refusal.
  { re: /^El número no tiene código de país y el equipo no tiene un país por defecto/, say: () => ({ key: "sendError.noCountryCode" }) },
  {
    re: /^El número no es válido en (\w+) \(\+(\d+)\) y no tiene código de país/,
    say: (m) => ({ key: "sendError.notNational", vars: { country: m[1], code: m[2] } }),
  },
  { re: /^El contacto se dio de baja de los mensajes de marketing/, say: () => ({ key: "sendError.optedOut" }) },
  { re: /^El valor del parámetro \{\{.+\}\} no puede contener saltos de línea/, say: () => ({ key: "sendError.paramFormat" }) },
  { re: /^El valor del botón \d+ no puede contener espacios/, say: () => ({ key: "sendError.noSpaces" }) },
  { re: /^El parámetro \{\{(.+)\}\} está repetido en body_params\.$/, say: () => ({ key: "sendError.repeated" }) },
  { re: /^El botón \d+ está repetido en button_params\.$/, say: () => ({ key: "sendError.repeated" }) },
  { re: /^El botón \d+ de la plantilla no es un botón URL con variable/, say: () => ({ key: "sendError.invalid" }) },
  { re: /^El índice de cada botón de button_params/, say: () => ({ key: "sendError.invalid" }) },
  { re: /^El atributo bot_id es requerido cuando response_handler es CHATBOT$/, say: () => ({ key: "sendError.botRequired" }) },
  { re: /^El atributo response_handler debe ser CAMPAIGN o CHATBOT$/, say: () => ({ key: "sendError.handlerInvalid" }) },
  { re: /^El bot con el ID: (-?\d+) no existe!$/, say: (m) => ({ key: "sendError.botNotFound", vars: { id: m[1] } }) },
  { re: /^La campaña con el ID: (-?\d+) no existe!$/, say: (m) => ({ key: "sendError.campaignNotFound", vars: { id: m[1] } }) },
  { re: /^El número de WhatsApp no está registrado\.$/, say: () => ({ key: "sendError.numberUnknown" }) },
  { re: /^La plantilla .+ no existe\.$/, say: () => ({ key: "sendError.templateUnknown" }) },
  {
    re: /^La plantilla .+ no está aprobada \(estado: ([^)]+)\)\. Motivo: (.+)\.$/,
    say: (m) => ({ key: "sendError.templateNotApprovedReason", vars: { status: m[1], reason: m[2] } }),
  },
  {
    re: /^La plantilla .+ no está aprobada \(estado: (.+)\)\.$/,
    say: (m) => ({ key: "sendError.templateNotApproved", vars: { status: m[1] } }),
  },
  // Parameters the template needs: placed on the input of the missing key or button.
  {
    re: /^Falta el valor del parámetro \{\{(.+)\}\} del cuerpo de la plantilla\.$/,
    field: (m, s) => (s.bodyKeys.includes(m[1]) ? `body_params.${s.bodyKeys.indexOf(m[1])}.value` : null),
    say: () => ({ key: "sendError.required" }),
  },
  {
    re: /^El atributo header_param es requerido: /,
    field: (_m, s) => (s.hasHeaderInput ? "header_param.value" : null),
    say: () => ({ key: "sendError.required" }),
  },
  {
    re: /^El atributo button_params es requerido: el botón (\d+) /,
    field: (m, s) => (s.buttonIndexes.includes(Number(m[1])) ? `button_params.${s.buttonIndexes.indexOf(Number(m[1]))}.value` : null),
    say: () => ({ key: "sendError.required" }),
  },
  // The attachment (media_path rules of 4.1).
  {
    re: /^El archivo de media_path debe tener extensión (.+) para una plantilla con encabezado (\w+)\.$/,
    say: (m) => ({ key: "sendError.fileFormat", vars: { formats: m[1].replace(/ o /g, ", "), format: m[2] } }),
  },
  { re: /^La plantilla .+ tiene un encabezado \w+: indique media_path/, say: () => ({ key: "sendError.fileRequired" }) },
  { re: /^El archivo de media_path no existe/, say: () => ({ key: "sendError.fileMissing" }) },
  { re: /^El archivo por defecto de la plantilla no existe/, say: () => ({ key: "sendError.defaultInvalid" }) },
  { re: /^El archivo de media_path no pertenece a su equipo/, say: () => ({ key: "sendError.fileMissing" }) },
];

/** The form input a request path belongs to (`body_params.1.key` → `body_params.1.value`), or null. */
export function formFieldOf(path: string, shape: SendFormShape): string | null {
  if (["wa_number", "destination", "template_name", "response_handler", "campaign_id", "bot_id", "sent_group"].includes(path)) return path;
  let m = /^body_params\.(\d+)\.(key|value)$/.exec(path);
  if (m) return Number(m[1]) < shape.bodyKeys.length ? `body_params.${m[1]}.value` : null;
  m = /^button_params\.(\d+)\.(index|value)$/.exec(path);
  if (m) return Number(m[1]) < shape.buttonIndexes.length ? `button_params.${m[1]}.value` : null;
  if (path.startsWith("header_param")) return shape.hasHeaderInput ? "header_param.value" : null;
  if (path === "media_path") return shape.hasAttachment ? "media_path" : null;
  return null;
}

/**
 * One error (`path` as the API or the shared schema names it, `message` its Spanish text) as the
 * form shows it: the input it goes beside (null: the form-wide message) and its text in the UI's language.
 */
export function placeSendError(path: string, message: string, shape: SendFormShape, t: Translate): PlacedError {
  const rule = RULES.find((r) => r.re.test(message));
  const match = rule ? message.match(rule.re)! : null;
  const field = rule?.field ? rule.field(match!, shape) : formFieldOf(path, shape);
  if (!field)
    return { field: null, message: rule ? t(rule.say(match!).key, { field: t("sendError.request"), ...rule.say(match!).vars }) : message };
  const label = shape.label(field);
  if (!rule) return { field, message: t("sendError.unknown", { field: label, message }) };
  const said = rule.say(match!);
  return { field, message: t(said.key, { field: label, ...said.vars }) };
}
