import { ApiError } from "@/lib/http/errors";
import { placeholderKeys, type TemplateComponent } from "@/lib/templates/schemas";
import { dynamicUrlButtons } from "@/lib/templates/params";
import type { SendTemplateInput } from "./send-schemas";

export const HEADER_PARAM_NOT_ALLOWED = "El encabezado de la plantilla no tiene variables: no se admite header_param.";
export const headerParamRequired = (key: string) =>
  `El atributo header_param es requerido: el encabezado de la plantilla tiene la variable {{${key}}}.`;
export const unknownHeaderKey = (key: string) => `El parámetro {{${key}}} no existe en el encabezado de la plantilla.`;
export const unknownBodyKey = (key: string) => `El parámetro {{${key}}} no existe en el cuerpo de la plantilla.`;
export const missingBodyKey = (key: string) => `Falta el valor del parámetro {{${key}}} del cuerpo de la plantilla.`;
export const buttonParamRequired = (index: number) =>
  `El atributo button_params es requerido: el botón ${index} de la plantilla tiene una URL con la variable {{1}}.`;
export const unknownButtonIndex = (index: number) =>
  `El botón ${index} de la plantilla no es un botón URL con variable: no se admite en button_params.`;

export { dynamicUrlButtons };

/**
 * Ruling 9: every `{{n}}` of the body gets a value and no unknown key is accepted;
 * `header_param` only (and then necessarily) for a TEXT header with a variable; `button_params`
 * only (and then necessarily) for the URL buttons with a variable.
 */
export function resolveParams(
  components: TemplateComponent[],
  input: Pick<SendTemplateInput, "header_param" | "body_params"> & { button_params?: { index: number; value: string }[] },
): { header: Record<string, string>; body: Record<string, string>; buttons: Record<number, string> } {
  const headerComponent = components.find((c) => c.type === "HEADER");
  const bodyComponent = components.find((c) => c.type === "BODY");
  const headerKeys = headerComponent?.format === "TEXT" ? placeholderKeys(headerComponent.text) : [];
  const bodyKeys = placeholderKeys(bodyComponent?.text);

  // Null prototype: a key such as "constructor" must not find an inherited property.
  const header: Record<string, string> = Object.create(null);
  if (input.header_param) {
    if (!headerKeys.length) throw ApiError.invalid("header_param", HEADER_PARAM_NOT_ALLOWED);
    if (!headerKeys.includes(input.header_param.key)) {
      throw ApiError.invalid("header_param.key", unknownHeaderKey(input.header_param.key));
    }
    header[input.header_param.key] = input.header_param.value;
  }
  const missingHeader = headerKeys.find((k) => !(k in header));
  if (missingHeader) throw ApiError.invalid("header_param", headerParamRequired(missingHeader));

  const body: Record<string, string> = Object.create(null);
  input.body_params.forEach((p, i) => {
    if (!bodyKeys.includes(p.key)) throw ApiError.invalid(`body_params.${i}.key`, unknownBodyKey(p.key));
    body[p.key] = p.value;
  });
  const missingBody = bodyKeys.find((k) => !(k in body));
  if (missingBody) throw ApiError.invalid("body_params", missingBodyKey(missingBody));

  // A URL button with a variable needs its value, as Meta refuses the send without one.
  const dynamic = dynamicUrlButtons(components).map((b) => b.index);
  const buttons: Record<number, string> = {};
  (input.button_params ?? []).forEach((b, i) => {
    if (!dynamic.includes(b.index)) throw ApiError.invalid(`button_params.${i}.index`, unknownButtonIndex(b.index));
    buttons[b.index] = b.value;
  });
  const missingButton = dynamic.find((index) => !(index in buttons));
  if (missingButton !== undefined) throw ApiError.invalid("button_params", buttonParamRequired(missingButton));
  return { header, body, buttons };
}
