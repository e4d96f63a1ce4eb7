import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createTemplate } from "../helpers/factories";
import { sendingTeam } from "../helpers/send-factories";
import { placeSendError, type SendFormShape } from "@/lib/api-client/send-errors";
import { format } from "@/lib/i18n/format";
import { es } from "@/lib/i18n/es";
import { en } from "@/lib/i18n/en";
import type { Translate } from "@/lib/i18n";
import {
  BOT_ID_REQUIRED,
  DESTINATION_INVALID,
  RESPONSE_HANDLER_INVALID,
  botNotFound,
  campaignNotFound,
  duplicateButtonIndex,
  paramValueFormat,
} from "@/lib/messages/send-schemas";
import { buttonParamRequired, headerParamRequired, missingBodyKey, unknownButtonIndex } from "@/lib/messages/send-params";
import { extensionMismatch, mediaRequired, MEDIA_MISSING } from "@/lib/messages/send-media";
import { templateNotApproved, templateNotFound } from "@/lib/templates/service";
import { WA_NUMBER_NOT_REGISTERED } from "@/lib/numbers/service";

const tr =
  (cat: Record<string, string>): Translate =>
  (key, vars) =>
    format(cat[key] ?? key, vars);

/** The form of the demo's confirmacion_pedido: header {{1}}, body {{1}} {{2}}, URL button 1. */
const shape = (t: Translate): SendFormShape => ({
  bodyKeys: ["1", "2"],
  buttonIndexes: [1],
  hasHeaderInput: true,
  hasAttachment: true,
  label: (path) =>
    ({
      destination: t("send.destination"),
      bot_id: t("send.bot"),
      campaign_id: t("send.campaign"),
      response_handler: t("send.responseHandler"),
      wa_number: t("send.waNumber"),
      template_name: t("send.template"),
      media_path: t("send.attachment"),
      "header_param.value": t("send.headerParam", { key: "1" }),
      "body_params.0.value": t("send.bodyParam", { key: "1" }),
      "body_params.1.value": t("send.bodyParam", { key: "2" }),
      "button_params.0.value": t("send.buttonParam", { text: "Seguir pedido", key: "1" }),
    })[path] ?? path,
});

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe("send form errors: the server's exact texts, placed and worded for the UI", () => {
  const cases: [string, string, string, string, string][] = [
    // path as the API names it, exact Spanish text, form field, Spanish UI, English UI
    [
      "body_params.1.value",
      "El campo body_params.1.value es obligatorio.",
      "body_params.1.value",
      "Cuerpo {{2}}: obligatorio",
      "Body {{2}}: required",
    ],
    ["body_params", missingBodyKey("2"), "body_params.1.value", "Cuerpo {{2}}: obligatorio", "Body {{2}}: required"],
    ["header_param", headerParamRequired("1"), "header_param.value", "Encabezado {{1}}: obligatorio", "Header {{1}}: required"],
    [
      "button_params",
      buttonParamRequired(1),
      "button_params.0.value",
      "Botón «Seguir pedido» {{1}}: obligatorio",
      "Button “Seguir pedido” {{1}}: required",
    ],
    [
      "destination",
      DESTINATION_INVALID,
      "destination",
      "Destino: número no válido, escriba de 8 a 15 dígitos con el código de país",
      "Destination: not a valid number, type 8 to 15 digits with the country code",
    ],
    [
      "bot_id",
      BOT_ID_REQUIRED,
      "bot_id",
      "Bot: obligatorio cuando las respuestas van a un chatbot",
      "Bot: required when replies go to a chatbot",
    ],
    ["bot_id", botNotFound(999999), "bot_id", "Bot: el bot 999999 no existe", "Bot: bot 999999 does not exist"],
    ["campaign_id", campaignNotFound(7), "campaign_id", "Campaña: la campaña 7 no existe", "Campaign: campaign 7 does not exist"],
    [
      "response_handler",
      RESPONSE_HANDLER_INVALID,
      "response_handler",
      "Enviar respuestas a: elija Campaña o Chatbot",
      "Send replies to: choose Campaign or Chatbot",
    ],
    [
      "media_path",
      extensionMismatch("IMAGE"),
      "media_path",
      "Adjunto: debe ser .jpg, .jpeg, .png para un encabezado IMAGE",
      "Attachment: must be .jpg, .jpeg, .png for the IMAGE header",
    ],
    [
      "media_path",
      mediaRequired("promo", "IMAGE"),
      "media_path",
      "Adjunto: obligatorio, la plantilla no tiene adjunto por defecto",
      "Attachment: required, the template has no default attachment",
    ],
    [
      "media_path",
      MEDIA_MISSING,
      "media_path",
      "Adjunto: el archivo ya no está disponible, súbalo de nuevo",
      "Attachment: the file is no longer available, upload it again",
    ],
    ["template_name", templateNotFound("x"), "template_name", "Plantilla: la plantilla no existe", "Template: the template does not exist"],
    [
      "template_name",
      templateNotApproved("x", "PAUSED"),
      "template_name",
      "Plantilla: la plantilla no está aprobada (estado PAUSED)",
      "Template: the template is not approved (status PAUSED)",
    ],
    [
      "template_name",
      templateNotApproved("x", "REJECTED", "INVALID_FORMAT"),
      "template_name",
      "Plantilla: la plantilla no está aprobada (estado REJECTED; motivo: INVALID_FORMAT)",
      "Template: the template is not approved (status REJECTED; reason: INVALID_FORMAT)",
    ],
    [
      "button_params.0.index",
      duplicateButtonIndex(1),
      "button_params.0.value",
      "Botón «Seguir pedido» {{1}}: repetido",
      "Button “Seguir pedido” {{1}}: repeated",
    ],
    [
      "button_params.0.index",
      unknownButtonIndex(1),
      "button_params.0.value",
      "Botón «Seguir pedido» {{1}}: valor no válido",
      "Button “Seguir pedido” {{1}}: not a valid value",
    ],
    [
      "header_param.value",
      paramValueFormat("1"),
      "header_param.value",
      "Encabezado {{1}}: sin saltos de línea, tabulaciones ni más de 4 espacios seguidos",
      "Header {{1}}: no line breaks, tabs or more than 4 spaces in a row",
    ],
    [
      "wa_number",
      WA_NUMBER_NOT_REGISTERED,
      "wa_number",
      "Número de la empresa: número no registrado",
      "Company number: number not registered",
    ],
  ];
  it.each(cases)("%s: %s", (path, message, field, inEs, inEn) => {
    const a = placeSendError(path, message, shape(tr(es)), tr(es));
    const b = placeSendError(path, message, shape(tr(en)), tr(en));
    expect(a).toEqual({ field, message: inEs });
    expect(b).toEqual({ field, message: inEn });
    // Never the API's path.
    expect(a.message).not.toMatch(/_params|_id\b|media_path|destination/);
    expect(b.message).not.toMatch(/_params|_id\b|media_path|destination/);
  });

  it("the API keeps the exact Spanish texts those placements are made from", async () => {
    const s = await sendingTeam();
    const dyn = await createTemplate(s.team.id, {
      components: [
        { type: "BODY", text: "Pedido {{1}} y {{2}}" },
        {
          type: "BUTTONS",
          buttons: [
            { type: "QUICK_REPLY", text: "Ok" },
            { type: "URL", text: "Seguir pedido", url: "https://x.test/p/{{1}}" },
          ],
        },
      ],
    });
    const api = apiClient(server.url, s.team.token);
    const res = await api.post("/api/v1/message_templates/send", {
      wa_number: s.number.number,
      destination: "573001234567",
      template_name: dyn.name,
      body_params: [
        { key: "1", value: "A" },
        { key: "2", value: "" },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ "body_params.1.value": ["El campo body_params.1.value es obligatorio."] });
    const missingButton = await api.post("/api/v1/message_templates/send", {
      wa_number: s.number.number,
      destination: "573001234567",
      template_name: dyn.name,
      body_params: [
        { key: "1", value: "A" },
        { key: "2", value: "B" },
      ],
    });
    expect(missingButton.body.errors).toEqual({ button_params: [buttonParamRequired(1)] });
  });
});
