import { Fragment } from "react";
import { safeUrl } from "./safe-url";

const URL_RE = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/gi;

const MONO_RE = /```([\s\S]+?)```/g;

/**
 * Message text as React text nodes (never HTML); http(s) URLs inside it become links, and
 * WhatsApp's *bold*, _italic_, ~strike~, `inline code` and ```monospace``` markers are honoured
 * (nothing inside a monospace block is formatted, as in WhatsApp).
 */
export function RichText({ text, className }: { text: string; className?: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(MONO_RE)) {
    const at = m.index ?? 0;
    if (at > last) parts.push(<Linked key={`l${at}`} text={text.slice(last, at)} />);
    parts.push(
      <code key={`c${at}`} className="rounded-sm font-mono text-[0.92em]" data-format="monospace">
        {m[1]}
      </code>,
    );
    last = at + m[0].length;
  }
  if (last < text.length) parts.push(<Linked key="end" text={text.slice(last)} />);
  return <span className={`wa-text ${className ?? ""}`}>{parts}</span>;
}

function Linked({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(URL_RE)) {
    const at = m.index ?? 0;
    if (at > last) parts.push(<Styled key={`t${at}`} text={text.slice(last, at)} />);
    const href = safeUrl(m[0]);
    parts.push(
      href ? (
        <a key={`a${at}`} href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-wa-blue underline">
          {m[0]}
        </a>
      ) : (
        <Fragment key={`a${at}`}>{m[0]}</Fragment>
      ),
    );
    last = at + m[0].length;
  }
  if (last < text.length) parts.push(<Styled key="end" text={text.slice(last)} />);
  return <>{parts}</>;
}

function Styled({ text }: { text: string }) {
  const out: React.ReactNode[] = [];
  // WhatsApp only treats a marker as formatting at word edges, so `window.__x` or `a*b*c` stay as typed.
  const re = /(?<=^|[\s([{"'¿¡])([*_~`])(?!\s)([^\n]*?[^\s*_~`])\1(?=$|[\s.,;:!?)\]}"'])/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const inner = m[2];
    out.push(
      m[1] === "*" ? (
        <strong key={at}>{inner}</strong>
      ) : m[1] === "_" ? (
        <em key={at}>{inner}</em>
      ) : m[1] === "~" ? (
        <s key={at}>{inner}</s>
      ) : (
        <code key={at} className="rounded-sm bg-black/5 px-0.5 font-mono text-[0.92em]" data-format="code">
          {inner}
        </code>
      ),
    );
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return <>{out}</>;
}

/** A link only when the URL is http(s); otherwise the URL shown as inert text. */
export function SafeLink({ url, children, className }: { url: unknown; children?: React.ReactNode; className?: string }) {
  const href = safeUrl(url);
  const label = children ?? (typeof url === "string" ? url : "");
  if (!href)
    return (
      <span className={`wa-text ${className ?? ""}`} data-inert-url="">
        {label}
      </span>
    );
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className={`text-wa-blue underline ${className ?? ""}`}>
      {label}
    </a>
  );
}
