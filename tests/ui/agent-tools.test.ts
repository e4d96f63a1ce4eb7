import { describe, expect, it } from "vitest";
import { buildRows } from "@/components/history/rows";
import { limitProblems, EMPTY_STATE } from "@/components/inbox/composer-limits";
import { rankSavedReplies, slashQuery } from "@/components/inbox/saved-reply-match";
import { fillSavedReply } from "@/lib/saved-replies/fill";
import { es, type MessageKey } from "@/lib/i18n/es";
import { format } from "@/lib/i18n/format";
import type { HistoryPage, Message } from "@/lib/api-client/types";
import type { SavedReplyDto } from "@/lib/saved-replies/schemas";

/** Pure logic behind the composer, saved replies and notes in the thread (docs/features/inbox.md); the browser side is e2e/. */
const t = (key: MessageKey, vars?: Record<string, string | number>) => format(es[key], vars);

function msg(id: number, timestamp: number): Message {
  return {
    id,
    customer_number: "573000000000",
    customer_id: null,
    sender: "CUSTOMER",
    direction: "INBOUND",
    type: "text",
    status: "RECEIVED",
    created_at: new Date(timestamp * 1000).toISOString().replace("T", " ").slice(0, 19),
    timestamp,
    payload: { text: `m${id}` },
    agent_id: null,
    agent_name: null,
  };
}
const page = (data: Message[]): HistoryPage => ({ message: "", data, pagination: null });
/** A note written when message `after` was the conversation's newest (null: before any). */
const note = (id: number, after: number | null, timestamp = 1_795_000_000) => ({
  id,
  agent_name: "Ana",
  body: `n${id}`,
  after_message_id: after,
  created_at: new Date(timestamp * 1000).toISOString(),
});
const keys = (rows: ReturnType<typeof buildRows>) => rows.filter((r) => r.kind === "msg" || r.kind === "note").map((r) => r.key);

describe("notes among the messages", () => {
  const base = 1_795_000_000;
  it("go right after the message that was newest when they were written, whatever the seconds say", () => {
    // m2 and m3 share their second with n1: the order comes from after_message_id, not time.
    const rows = buildRows([page([msg(3, base + 20), msg(2, base + 20), msg(1, base + 10)])], false, [note(1, 2), note(2, 3)]);
    expect(keys(rows)).toEqual(["m1", "m2", "n1", "m3", "n2"]);
  });
  it("older than the loaded messages wait while older pages remain, and show once the start is loaded", () => {
    const pages = [page([msg(5, base + 50)])];
    expect(keys(buildRows(pages, true, [note(1, 1), note(2, 5)]))).toEqual(["m5", "n2"]);
    expect(keys(buildRows(pages, false, [note(1, null), note(2, 5)]))).toEqual(["n1", "m5", "n2"]);
  });
  it("leave the rows unchanged when there are none (the viewer)", () => {
    const pages = [page([msg(2, base + 20), msg(1, base + 10)])];
    expect(buildRows(pages, false)).toEqual(buildRows(pages, false, []));
  });
});

describe("composer limits", () => {
  it("say which field is over and by how much, without touching the text", () => {
    const s = {
      ...EMPTY_STATE,
      mode: "quick_reply" as const,
      text: "¿Qué prefiere?",
      options: ["Recoger en la tienda del centro", "Envío"],
    };
    expect(limitProblems(s, t, false)).toEqual({ "qr-0": "Botón 1: 31 de 20 caracteres como máximo. Acórtelo para poder enviar." });
    expect(s.options[0]).toHaveLength(31);
    expect(limitProblems({ ...s, options: ["Recoger", "Envío"] }, t, false)).toEqual({});
  });
  it("check the caption alone while an attachment is picked", () => {
    const s = { ...EMPTY_STATE, text: "x".repeat(5000), caption: "y".repeat(1025) };
    expect(Object.keys(limitProblems(s, t, true))).toEqual(["attachment-caption"]);
    expect(Object.keys(limitProblems(s, t, false))).toEqual(["composer-text"]);
  });
});

describe("saved replies in the composer", () => {
  const reply = (shortcut: string, title: string, content: string, id = shortcut.length): SavedReplyDto => ({
    id,
    shortcut,
    title,
    content,
    created_at: "",
    updated_at: "",
  });
  it("open on a / that starts a word, up to the caret", () => {
    expect(slashQuery("/hor", 4)).toEqual({ start: 0, query: "hor" });
    expect(slashQuery("Hola /envío", 11)).toEqual({ start: 5, query: "envío" });
    expect(slashQuery("http://x", 8)).toBeNull();
    expect(slashQuery("a/b", 3)).toBeNull();
    expect(slashQuery("/hor más", 8)).toBeNull();
  });
  it("rank shortcuts starting with the query first, then matches in title or content, accents ignored", () => {
    const all = [
      reply("gracias", "Agradecer", "Gracias por escribir a envíos", 1),
      reply("envio", "Envío", "48 h", 2),
      reply("horario", "Horario", "8 a 18", 3),
    ];
    expect(rankSavedReplies(all, "envi").map((r) => r.shortcut)).toEqual(["envio", "gracias"]);
    expect(rankSavedReplies(all, "").map((r) => r.shortcut)).toEqual(["gracias", "envio", "horario"]);
    expect(rankSavedReplies(all, "zzz")).toEqual([]);
  });
  it("fill {{name}}, {{number}} and {{agent}}, leaving an unknown value empty and other braces alone", () => {
    expect(
      fillSavedReply("Hola {{name}} ({{ number }}), soy {{agent}}. {{1}}", { name: "Lucía", number: "573001112233", agent: "Ana" }),
    ).toBe("Hola Lucía (573001112233), soy Ana. {{1}}");
    expect(fillSavedReply("Hola {{name}}", { name: null })).toBe("Hola ");
  });
});
