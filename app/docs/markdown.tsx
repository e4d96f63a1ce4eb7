import type { ReactNode } from "react";

/**
 * The small Markdown the OpenAPI descriptions use, as React elements (never raw HTML): paragraphs,
 * line breaks, `- ` lists, ``` fences, # headings, and inline `code`, **bold**, *italic* and
 * [links](…) (http(s) and same-site paths only; anything else stays text).
 */
export function Markdown({ text, className }: { text: string; className?: string }) {
  return <div className={className}>{blocks(text)}</div>;
}

function blocks(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let para: string[] = [];
  let list: string[] = [];
  const flushPara = () => {
    if (para.length) {
      out.push(
        <p key={out.length} className="my-1">
          {para.map((l, i) => (
            <span key={i}>
              {i > 0 && <br />}
              {inline(l)}
            </span>
          ))}
        </p>,
      );
    }
    para = [];
  };
  const flushList = () => {
    if (list.length) {
      out.push(
        <ul key={out.length} className="my-1 list-disc pl-5">
          {list.map((l, i) => (
            <li key={i}>{inline(l)}</li>
          ))}
        </ul>,
      );
    }
    list = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      flushPara();
      flushList();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      out.push(
        <pre key={out.length} className="my-2 overflow-x-auto rounded bg-slate-100 p-2 text-xs">
          <code>{code.join("\n")}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (heading) {
      flushPara();
      flushList();
      out.push(
        <p key={out.length} className="mt-2 font-semibold">
          {inline(heading[2])}
        </p>,
      );
    } else if (item) {
      flushPara();
      list.push(item[1]);
    } else if (!line.trim()) {
      flushPara();
      flushList();
    } else {
      flushList();
      para.push(line);
    }
  }
  flushPara();
  flushList();
  return out;
}

const INLINE_RE = /`([^`\n]+)`|\*\*([^*\n]+)\*\*|(?<![\w*])\*([^*\n]+)\*(?![\w*])|\[([^\]\n]+)\]\(([^)\s]+)\)/g;

/** Inline Markdown of one line. */
export function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE_RE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    if (m[1] !== undefined) {
      out.push(
        <code key={at} className="rounded bg-slate-100 px-1 text-[0.9em]">
          {m[1]}
        </code>,
      );
    } else if (m[2] !== undefined) out.push(<strong key={at}>{m[2]}</strong>);
    else if (m[3] !== undefined) out.push(<em key={at}>{m[3]}</em>);
    else {
      const href =
        /^https?:\/\//i.test(m[5]) || (/^\/(?![/\\])/.test(m[5]) && !/[\t\n\r]/.test(m[5])) || m[5].startsWith("#") ? m[5] : null;
      out.push(
        href ? (
          <a key={at} href={href} className="text-emerald-700 underline">
            {m[4]}
          </a>
        ) : (
          m[0]
        ),
      );
    }
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
