"use client";
import { useRef, useState, type FormEvent } from "react";
import type { Conversation, Message } from "@/lib/api-client/types";
import { useSendReply, type ReplyInput } from "@/lib/api-client/inbox";
import { useUploadMedia } from "@/lib/api-client/hooks";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { useT, type MessageKey } from "@/lib/i18n";
import { SendForm } from "@/components/send/send-form";
import { Button, cx, inputClass } from "@/components/ui";
import { useWindowLeft } from "./contact-panel";

/** The replies API's limits (WhatsApp's): checked as the agent types, not after sending. */
export const LIMITS = {
  text: 4096,
  caption: 1024,
  qrBody: 1024,
  qrTitle: 20,
  qrOptions: 3,
  listBody: 4096,
  listButton: 20,
  listRowTitle: 24,
  listRowDesc: 72,
  listRows: 10,
};
export const WINDOW_CLOSED = "La ventana de 24 horas para responder a este cliente está cerrada: envíe una plantilla.";
const EMOJI = ["😀", "😂", "😊", "😍", "🙏", "👍", "👌", "🎉", "❤️", "✅", "🙌", "😉", "🤔", "😢", "📦", "🚚"];

type Mode = "text" | "quick_reply" | "list";

function mediaType(mime: string): "image" | "video" | "audio" | "document" {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  return "document";
}

function Counter({ value, max, id }: { value: string; max: number; id: string }) {
  return (
    <span id={id} className={cx("text-xs", value.length >= max ? "text-red-700" : "text-slate-600")}>
      {value.length}/{max}
    </span>
  );
}

/**
 * Replies inside the 24-hour window: text with emoji, an attachment, quick-reply buttons or a
 * list, optionally answering one message. With the window closed it says so and offers the
 * template send form for this customer instead.
 */
export function Composer({ conv, replyTo, onClearReply }: { conv: Conversation; replyTo: Message | null; onClearReply: () => void }) {
  const t = useT();
  const send = useSendReply();
  const upload = useUploadMedia();
  const left = useWindowLeft(conv.window_expires_at);
  const [serverClosed, setServerClosed] = useState(false);
  const [mode, setMode] = useState<Mode>("text");
  const [text, setText] = useState("");
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [options, setOptions] = useState<string[]>([""]);
  const [list, setList] = useState({ button: "", section: "", rows: [{ title: "", description: "" }] });
  const [error, setError] = useState<string | null>(null);
  const [templateOpen, setTemplateOpen] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const source = conv.contact.customer_number ?? conv.contact.customer_id ?? "";
  const closed = left <= 0 || serverClosed;

  if (closed) {
    return (
      <div className="border-t border-slate-200 bg-white p-3" data-testid="window-closed">
        <p className="text-sm text-amber-900">{t("inbox.closedExplain")}</p>
        {templateOpen ? (
          <div className="mt-2 max-h-[60dvh] overflow-y-auto" data-testid="template-form">
            <SendForm embedded preset={{ waNumber: conv.wa_number, destination: conv.contact.customer_number ?? "" }} />
          </div>
        ) : (
          <Button type="button" className="mt-2" onClick={() => setTemplateOpen(true)}>
            {t("inbox.sendTemplate")}
          </Button>
        )}
      </div>
    );
  }

  async function post(type: string, payload: unknown) {
    setError(null);
    const body: ReplyInput = { wa_number: conv.wa_number, customer_source: source, type, payload };
    if (replyTo?.update_id) body.context_update_id = replyTo.update_id;
    try {
      await send.mutateAsync(body);
      return true;
    } catch (err) {
      if (err instanceof ApiRequestError && err.errors.customer_source?.[0] === WINDOW_CLOSED) {
        setServerClosed(true);
        return false;
      }
      setError(err instanceof Error ? err.message : String(err));
      return false;
    }
  }

  function reset() {
    setText("");
    setOptions([""]);
    setList({ button: "", section: "", rows: [{ title: "", description: "" }] });
    onClearReply();
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    let ok = false;
    if (mode === "text") {
      if (!text.trim()) return;
      ok = await post("text", { text });
    } else if (mode === "quick_reply") {
      const opts = options.map((o) => o.trim()).filter(Boolean);
      if (!text.trim() || opts.length === 0) return setError(t("inbox.qrIncomplete"));
      ok = await post("quick_reply", {
        content: { type: "text", text },
        options: opts.map((title, i) => ({ type: "text", title, id: `opt_${i + 1}` })),
      });
    } else {
      const rows = list.rows.filter((r) => r.title.trim());
      if (!text.trim() || !list.button.trim() || rows.length === 0) return setError(t("inbox.listIncomplete"));
      ok = await post("list", {
        body: text,
        button: list.button,
        items: [
          {
            title: list.section || list.button,
            rows: rows.map((r, i) => ({ id: `row_${i + 1}`, title: r.title, ...(r.description ? { description: r.description } : {}) })),
          },
        ],
      });
    }
    if (ok) reset();
  }

  async function onFile(file: File | undefined) {
    if (!file) return;
    setError(null);
    try {
      const media = await upload.mutateAsync(file);
      const type = mediaType(file.type);
      const payload: Record<string, unknown> = { media_path: media.media_path };
      if (text.trim() && type !== "audio") payload.caption = text.slice(0, LIMITS.caption);
      if (type === "document") payload.filename = file.name;
      if (await post(type, payload)) reset();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      if (fileRef.current) fileRef.current.value = "";
    }
  }

  function insertEmoji(emoji: string) {
    const el = textRef.current;
    const max = mode === "quick_reply" ? LIMITS.qrBody : LIMITS.text;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = (text.slice(0, start) + emoji + text.slice(end)).slice(0, max);
    setText(next);
    setEmojiOpen(false);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  }

  const modes: { id: Mode; key: MessageKey }[] = [
    { id: "text", key: "inbox.modeText" },
    { id: "quick_reply", key: "inbox.modeQuickReply" },
    { id: "list", key: "inbox.modeList" },
  ];
  const textMax = mode === "quick_reply" ? LIMITS.qrBody : mode === "list" ? LIMITS.listBody : LIMITS.text;
  const busy = send.isPending || upload.isPending;

  return (
    <form
      onSubmit={onSubmit}
      className="space-y-2 border-t border-slate-200 bg-white p-2"
      aria-label={t("inbox.composer")}
      data-testid="composer"
    >
      {replyTo && (
        <div
          className="flex items-center gap-2 rounded border-l-4 border-emerald-600 bg-slate-50 px-2 py-1 text-sm"
          data-testid="replying-to"
        >
          <span className="min-w-0 flex-1 truncate">
            {t("inbox.replyingTo")}: {previewOf(replyTo)}
          </span>
          <button type="button" className="text-slate-700 underline" onClick={onClearReply}>
            {t("common.cancel")}
          </button>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-1 text-sm" role="group" aria-label={t("inbox.messageKind")}>
        {modes.map((m) => (
          <button
            key={m.id}
            type="button"
            aria-pressed={mode === m.id}
            onClick={() => setMode(m.id)}
            className={cx("rounded-full px-2.5 py-0.5", mode === m.id ? "bg-emerald-700 text-white" : "bg-slate-100 text-slate-800")}
          >
            {t(m.key)}
          </button>
        ))}
      </div>
      {mode === "quick_reply" && (
        <fieldset className="space-y-1" data-testid="qr-builder">
          <legend className="text-xs text-slate-700">{t("inbox.qrOptions", { max: LIMITS.qrOptions, len: LIMITS.qrTitle })}</legend>
          {options.map((o, i) => (
            <div key={i} className="flex items-center gap-2">
              <label htmlFor={`qr-${i}`} className="sr-only">
                {t("inbox.qrOption", { n: i + 1 })}
              </label>
              <input
                id={`qr-${i}`}
                className={cx(inputClass, "py-1")}
                value={o}
                maxLength={LIMITS.qrTitle}
                placeholder={t("inbox.qrOption", { n: i + 1 })}
                aria-describedby={`qr-${i}-count`}
                onChange={(e) => setOptions(options.map((x, j) => (j === i ? e.target.value.slice(0, LIMITS.qrTitle) : x)))}
              />
              <Counter value={o} max={LIMITS.qrTitle} id={`qr-${i}-count`} />
              {options.length > 1 && (
                <button
                  type="button"
                  className="text-xs text-red-700"
                  aria-label={t("inbox.removeOption", { n: i + 1 })}
                  onClick={() => setOptions(options.filter((_, j) => j !== i))}
                >
                  ✕
                </button>
              )}
            </div>
          ))}
          {options.length < LIMITS.qrOptions && (
            <button type="button" className="text-xs text-emerald-800 underline" onClick={() => setOptions([...options, ""])}>
              + {t("inbox.addOption")}
            </button>
          )}
        </fieldset>
      )}
      {mode === "list" && (
        <fieldset className="space-y-1" data-testid="list-builder">
          <legend className="text-xs text-slate-700">{t("inbox.listRows", { max: LIMITS.listRows, len: LIMITS.listRowTitle })}</legend>
          <div className="flex items-center gap-2">
            <label htmlFor="list-button" className="sr-only">
              {t("inbox.listButton")}
            </label>
            <input
              id="list-button"
              className={cx(inputClass, "py-1")}
              value={list.button}
              maxLength={LIMITS.listButton}
              placeholder={t("inbox.listButton")}
              onChange={(e) => setList({ ...list, button: e.target.value.slice(0, LIMITS.listButton) })}
            />
            <Counter value={list.button} max={LIMITS.listButton} id="list-button-count" />
          </div>
          {list.rows.map((r, i) => (
            <div key={i} className="flex items-center gap-2">
              <label htmlFor={`row-${i}`} className="sr-only">
                {t("inbox.listRow", { n: i + 1 })}
              </label>
              <input
                id={`row-${i}`}
                className={cx(inputClass, "py-1")}
                value={r.title}
                maxLength={LIMITS.listRowTitle}
                placeholder={t("inbox.listRow", { n: i + 1 })}
                onChange={(e) =>
                  setList({
                    ...list,
                    rows: list.rows.map((x, j) => (j === i ? { ...x, title: e.target.value.slice(0, LIMITS.listRowTitle) } : x)),
                  })
                }
              />
              <Counter value={r.title} max={LIMITS.listRowTitle} id={`row-${i}-count`} />
              <label htmlFor={`row-${i}-desc`} className="sr-only">
                {t("inbox.listRowDesc", { n: i + 1 })}
              </label>
              <input
                id={`row-${i}-desc`}
                className={cx(inputClass, "py-1")}
                value={r.description}
                maxLength={LIMITS.listRowDesc}
                placeholder={t("inbox.listRowDesc", { n: i + 1 })}
                onChange={(e) =>
                  setList({
                    ...list,
                    rows: list.rows.map((x, j) => (j === i ? { ...x, description: e.target.value.slice(0, LIMITS.listRowDesc) } : x)),
                  })
                }
              />
              {list.rows.length > 1 && (
                <button
                  type="button"
                  className="text-xs text-red-700"
                  aria-label={t("inbox.removeRow", { n: i + 1 })}
                  onClick={() => setList({ ...list, rows: list.rows.filter((_, j) => j !== i) })}
                >
                  ✕
                </button>
              )}
            </div>
          ))}
          {list.rows.length < LIMITS.listRows && (
            <button
              type="button"
              className="text-xs text-emerald-800 underline"
              onClick={() => setList({ ...list, rows: [...list.rows, { title: "", description: "" }] })}
            >
              + {t("inbox.addRow")}
            </button>
          )}
        </fieldset>
      )}
      <div className="flex items-end gap-2">
        <div className="relative">
          <button
            type="button"
            className="rounded px-2 py-1.5 text-lg hover:bg-slate-100"
            aria-label={t("inbox.emoji")}
            aria-expanded={emojiOpen}
            onClick={() => setEmojiOpen((o) => !o)}
          >
            <span aria-hidden="true">😊</span>
          </button>
          {emojiOpen && (
            <div
              className="absolute bottom-10 left-0 z-10 grid w-56 grid-cols-8 gap-1 rounded-md border border-slate-200 bg-white p-2 shadow"
              data-testid="emoji-picker"
            >
              {EMOJI.map((e) => (
                <button key={e} type="button" className="rounded text-lg hover:bg-slate-100" aria-label={e} onClick={() => insertEmoji(e)}>
                  {e}
                </button>
              ))}
            </div>
          )}
        </div>
        {mode === "text" && (
          <>
            <button
              type="button"
              className="rounded px-2 py-1.5 text-lg hover:bg-slate-100"
              aria-label={t("inbox.attach")}
              onClick={() => fileRef.current?.click()}
              disabled={busy}
            >
              <svg viewBox="0 0 16 16" className="h-5 w-5 text-slate-700" aria-hidden="true">
                <path
                  d="M10.5 4.5 5.6 9.4a1.3 1.3 0 0 0 1.9 1.9l5-5a2.6 2.6 0 0 0-3.7-3.7l-5 5a3.9 3.9 0 0 0 5.5 5.5L13.5 8"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="1.3"
                  strokeLinecap="round"
                />
              </svg>
            </button>
            <input
              ref={fileRef}
              type="file"
              className="hidden"
              aria-label={t("inbox.attach")}
              data-testid="attach-input"
              accept="image/jpeg,image/png,video/mp4,application/pdf,audio/*"
              onChange={(e) => onFile(e.target.files?.[0])}
            />
          </>
        )}
        <label htmlFor="composer-text" className="sr-only">
          {mode === "text" ? t("inbox.typeMessage") : t("inbox.bodyText")}
        </label>
        <textarea
          id="composer-text"
          ref={textRef}
          rows={2}
          className={cx(inputClass, "min-h-10 flex-1 resize-y")}
          placeholder={mode === "text" ? t("inbox.typeMessage") : t("inbox.bodyText")}
          value={text}
          maxLength={textMax}
          onChange={(e) => setText(e.target.value.slice(0, textMax))}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && mode === "text") {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <Button type="submit" disabled={busy}>
          {t("inbox.send")}
        </Button>
      </div>
      <div className="flex justify-between">
        <p role="alert" className="text-xs text-red-700" data-testid="composer-error">
          {error}
        </p>
        <Counter value={text} max={textMax} id="composer-count" />
      </div>
    </form>
  );
}

function previewOf(m: Message): string {
  const p = m.payload as Record<string, unknown> | null;
  const text = p && typeof p === "object" && !Array.isArray(p) ? (p.text ?? p.caption ?? p.body) : null;
  return typeof text === "string" ? text.slice(0, 80) : (m.type ?? "");
}
