"use client";
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { Conversation, Message } from "@/lib/api-client/types";
import { useSendReply, type ReplyInput } from "@/lib/api-client/inbox";
import { useMe } from "@/lib/api-client/auth";
import { useUploadMedia } from "@/lib/api-client/send";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { useT, type MessageKey } from "@/lib/i18n";
import { SendForm } from "@/components/send/send-form";
import { Button, cx, inputClass } from "@/components/ui";
import { useWindowLeft } from "./contact-panel";
import { AttachmentPreview, mediaType } from "./attachment-preview";
import { Counter, ListBuilder, QuickReplyBuilder } from "./composer-builders";
import { EMPTY_LIST, EMPTY_STATE, LIMITS, limitProblems, type ComposerState, type Mode } from "./composer-limits";
import { useDraft, writeDraft } from "./use-draft";
import { useSavedReplyPicker } from "./saved-reply-picker";

export { LIMITS };
export const WINDOW_CLOSED = "La ventana de 24 horas para responder a este cliente está cerrada: envíe una plantilla.";
const EMOJI = ["😀", "😂", "😊", "😍", "🙏", "👍", "👌", "🎉", "❤️", "✅", "🙌", "😉", "🤔", "😢", "📦", "🚚"];

/** The payload of what the composer holds, or an error key when something required is missing. */
function buildPayload(s: ComposerState): { type: string; payload: unknown } | { missing: MessageKey } | null {
  if (s.mode === "text") return s.text.trim() ? { type: "text", payload: { text: s.text } } : null;
  if (s.mode === "quick_reply") {
    const opts = s.options.map((o) => o.trim()).filter(Boolean);
    if (!s.text.trim() || opts.length === 0) return { missing: "inbox.qrIncomplete" };
    return {
      type: "quick_reply",
      payload: { content: { type: "text", text: s.text }, options: opts.map((title, i) => ({ type: "text", title, id: `opt_${i + 1}` })) },
    };
  }
  const rows = s.list.rows.filter((r) => r.title.trim());
  if (!s.text.trim() || !s.list.button.trim() || rows.length === 0) return { missing: "inbox.listIncomplete" };
  return {
    type: "list",
    payload: {
      body: s.text,
      button: s.list.button,
      items: [
        {
          title: s.list.section || s.list.button,
          rows: rows.map((r, i) => ({ id: `row_${i + 1}`, title: r.title, ...(r.description ? { description: r.description } : {}) })),
        },
      ],
    },
  };
}

/**
 * Replies inside the 24-hour window: text with emoji, an attachment (previewed, with its own
 * caption), quick-reply buttons or a list, optionally answering one message. Sending clears the
 * box at once and shows the bubble at once (lib/api-client/inbox.ts reconciles it); a failed send
 * puts everything back. What is typed is kept per conversation (use-draft.ts), and every limit is
 * shown as it is passed instead of cutting the text. With the window closed it offers the
 * template send form instead.
 */
export function ReplyComposer({
  conv,
  replyTo,
  onClearReply,
  onSent,
}: {
  conv: Conversation;
  replyTo: Message | null;
  onClearReply: () => void;
  onSent?: () => void;
}) {
  const t = useT();
  const me = useMe();
  const send = useSendReply(me.data ? { id: me.data.id, name: me.data.name } : null, conv.id);
  const upload = useUploadMedia();
  const left = useWindowLeft(conv.window_expires_at);
  const [serverClosed, setServerClosed] = useState(false);
  const [state, patch, setState] = useDraft(conv.id);
  const [file, setFile] = useState<File | null>(null);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [templateOpen, setTemplateOpen] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const mounted = useRef(true);
  const source = conv.contact.customer_number ?? conv.contact.customer_id ?? "";
  const closed = left <= 0 || serverClosed;
  const problems = limitProblems(state, t, !!file);
  const picker = useSavedReplyPicker({
    text: state.text,
    textRef,
    values: { name: conv.contact.name, number: conv.contact.customer_number, agent: me.data?.name },
    onInsert: (text) => patch({ text }),
  });
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

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

  /** Gives back what a failed send took out of the box (to the draft too, should the agent have moved on). */
  function restore(previous: ComposerState, err: unknown) {
    if (mounted.current) {
      setState(previous);
      if (err instanceof ApiRequestError && err.errors.customer_source?.[0] === WINDOW_CLOSED) setServerClosed(true);
      else setError(err instanceof Error ? err.message : String(err));
    } else writeDraft(conv.id, previous);
  }

  function post(type: string, payload: unknown, previous: ComposerState) {
    const body: ReplyInput = { wa_number: conv.wa_number, customer_source: source, type, payload };
    if (replyTo?.update_id) body.context_update_id = replyTo.update_id;
    send.mutate(body, { onError: (err) => restore(previous, err) });
    onClearReply();
    onSent?.();
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    // The limits are already listed under the box: take the agent to the first field over one.
    const over = Object.keys(problems)[0];
    if (over) return document.getElementById(over)?.focus();
    const previous = state;
    if (file) return sendFile(file, previous);
    const built = buildPayload(state);
    if (!built) return;
    if ("missing" in built) return setError(t(built.missing));
    // The box clears before the request leaves; the bubble is already in the thread.
    setState({ ...EMPTY_STATE, mode: state.mode });
    post(built.type, built.payload, previous);
    textRef.current?.focus();
  }

  async function sendFile(f: File, previous: ComposerState) {
    const type = mediaType(f.type);
    setFile(null);
    patch({ caption: "" });
    try {
      const media = await upload.mutateAsync(f);
      const payload: Record<string, unknown> = { media_path: media.media_path };
      if (previous.caption.trim() && type !== "audio") payload.caption = previous.caption;
      if (type === "document") payload.filename = f.name;
      post(type, payload, previous);
    } catch (err) {
      if (mounted.current) setFile(f);
      restore(previous, err);
    }
  }

  function insertEmoji(emoji: string) {
    const el = textRef.current;
    const start = el?.selectionStart ?? state.text.length;
    const end = el?.selectionEnd ?? state.text.length;
    patch({ text: state.text.slice(0, start) + emoji + state.text.slice(end) });
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
  const textMax = state.mode === "quick_reply" ? LIMITS.qrBody : state.mode === "list" ? LIMITS.listBody : LIMITS.text;
  const problemList = Object.entries(problems);

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
      {file ? (
        <AttachmentPreview
          file={file}
          caption={state.caption}
          problem={problems["attachment-caption"]}
          busy={upload.isPending}
          onCaption={(caption) => patch({ caption })}
          onCancel={() => setFile(null)}
        />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-1 text-sm" role="group" aria-label={t("inbox.messageKind")}>
            {modes.map((m) => (
              <button
                key={m.id}
                type="button"
                aria-pressed={state.mode === m.id}
                onClick={() => patch({ mode: m.id })}
                className={cx(
                  "rounded-full px-2.5 py-0.5",
                  state.mode === m.id ? "bg-emerald-700 text-white" : "bg-slate-100 text-slate-800",
                )}
              >
                {t(m.key)}
              </button>
            ))}
          </div>
          {state.mode === "quick_reply" && (
            <QuickReplyBuilder options={state.options} problems={problems} onChange={(options) => patch({ options })} />
          )}
          {state.mode === "list" && (
            <ListBuilder list={state.list ?? EMPTY_LIST} problems={problems} onChange={(list) => patch({ list })} />
          )}
          <div className="relative flex items-end gap-2">
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
                    <button
                      key={e}
                      type="button"
                      className="rounded text-lg hover:bg-slate-100"
                      aria-label={e}
                      onClick={() => insertEmoji(e)}
                    >
                      {e}
                    </button>
                  ))}
                </div>
              )}
            </div>
            {state.mode === "text" && (
              <>
                <button
                  type="button"
                  className="rounded px-2 py-1.5 text-lg hover:bg-slate-100"
                  aria-label={t("inbox.attach")}
                  onClick={() => fileRef.current?.click()}
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
                  onChange={(e) => {
                    const f = e.target.files?.[0];
                    if (f) {
                      setError(null);
                      setFile(f);
                    }
                    e.target.value = "";
                  }}
                />
              </>
            )}
            <label htmlFor="composer-text" className="sr-only">
              {state.mode === "text" ? t("inbox.typeMessage") : t("inbox.bodyText")}
            </label>
            <div className="min-w-0 flex-1">
              {picker.listbox}
              <textarea
                id="composer-text"
                ref={textRef}
                rows={2}
                className={cx(inputClass, "min-h-10 w-full resize-y", problems["composer-text"] && "border-red-600")}
                placeholder={state.mode === "text" ? t("composer.placeholder") : t("inbox.bodyText")}
                value={state.text}
                aria-invalid={problems["composer-text"] ? true : undefined}
                aria-describedby="composer-count"
                {...picker.textareaProps}
                onChange={(e) => {
                  patch({ text: e.target.value });
                  picker.track(e.currentTarget);
                }}
                onSelect={(e) => picker.track(e.currentTarget)}
                onKeyDown={(e) => {
                  if (picker.onKeyDown(e)) return;
                  if (e.key === "Enter" && !e.shiftKey && state.mode === "text") {
                    e.preventDefault();
                    e.currentTarget.form?.requestSubmit();
                  }
                }}
              />
            </div>
            <Button type="submit" data-testid="composer-send">
              {t("inbox.send")}
            </Button>
          </div>
        </>
      )}
      <div className="flex justify-between gap-2">
        <div className="min-w-0" aria-live="polite">
          {problemList.length > 0 && (
            <ul className="text-xs text-red-700" data-testid="composer-limits">
              {problemList.map(([id, text]) => (
                <li key={id}>{text}</li>
              ))}
            </ul>
          )}
          <p role="alert" className="text-xs text-red-700" data-testid="composer-error">
            {error}
          </p>
        </div>
        {!file && <Counter value={state.text} max={textMax} id="composer-count" />}
      </div>
    </form>
  );
}

function previewOf(m: Message): string {
  const p = m.payload as Record<string, unknown> | null;
  const text = p && typeof p === "object" && !Array.isArray(p) ? (p.text ?? p.caption ?? p.body) : null;
  return typeof text === "string" ? text.slice(0, 80) : (m.type ?? "");
}
