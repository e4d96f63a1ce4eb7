import type { AccountTemplates, Scripted } from "./graph";

/**
 * Creating and deleting a business account's templates as Meta documents them (test-only):
 * `POST /{version}/{waba_id}/message_templates` answers `{"id","status":"PENDING","category"}` and
 * adds the template to the account's list (so a sync then lists it); a name and language the
 * account already has answers Meta's 100/2388024 with its words for a person
 * (`error_user_title`, `error_user_msg`). `DELETE …/message_templates?name=…[&hsm_id=…]` answers
 * `{"success":true}` and removes that name (only the `hsm_id` one when given); a name the account
 * does not have answers Meta's 100. A scripted answer (`scriptTemplateWrite`) replaces the next one.
 */
export type TemplateWriteCall = { method: string; wabaId: string; body: any; query: URLSearchParams };

let metaTemplateSeq = 0;

/** Meta's error body with the fields it writes for a person, as its template refusals carry them. */
export function templateRefusal(title: string, message: string, subcode = 2388024): Scripted {
  return {
    status: 400,
    body: {
      error: {
        message: "Invalid parameter",
        type: "OAuthException",
        code: 100,
        error_subcode: subcode,
        is_transient: false,
        error_user_title: title,
        error_user_msg: message,
        fbtrace_id: "AxYzFaKeTpl",
      },
    },
  };
}

export function answerTemplateWrite(
  accounts: Map<string, AccountTemplates>,
  script: Scripted[],
  call: TemplateWriteCall,
): { status: number; body: unknown } {
  const scripted = script.shift();
  if (scripted) return { status: scripted.status, body: scripted.body };
  const account = accounts.get(call.wabaId) ?? { templates: [], calls: [] };
  accounts.set(call.wabaId, account);
  const listed = account.templates as { id: string; name: string; language: string }[];
  if (call.method === "POST") {
    const { name, language, category, components } = call.body ?? {};
    if (typeof name !== "string" || !/^[a-z0-9_]{1,512}$/.test(name) || typeof language !== "string" || !Array.isArray(components)) {
      const e = templateRefusal("Invalid parameter", "The template's name, language or components are missing or invalid.", 2388042);
      return { status: e.status, body: e.body };
    }
    if (listed.some((t) => t.name === name && t.language === language)) {
      const e = templateRefusal(
        "Content in this language already exists",
        `There is already ${language} content for this template. You can create a new template and try again.`,
      );
      return { status: e.status, body: e.body };
    }
    const id = String(9_100_000_000 + ++metaTemplateSeq);
    listed.push({ id, name, language, status: "PENDING", category, components, rejected_reason: "NONE" } as never);
    return { status: 200, body: { id, status: "PENDING", category } };
  }
  const name = call.query.get("name");
  const hsmId = call.query.get("hsm_id");
  const gone = listed.filter((t) => t.name === name && (!hsmId || t.id === hsmId));
  if (!name || !gone.length) {
    const e = templateRefusal("Message template not found", `The message template ${name ?? ""} could not be found.`, 2593002);
    return { status: e.status, body: e.body };
  }
  account.templates = listed.filter((t) => !gone.includes(t));
  return { status: 200, body: { success: true } };
}
