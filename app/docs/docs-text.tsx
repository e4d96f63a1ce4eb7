"use client";
import { useT, type MessageKey } from "@/lib/i18n";

/**
 * A text of the reference's own frame (headings, "required", constraints) in the UI's language,
 * inside the server-rendered page; the OpenAPI document's descriptions stay as the API writes them.
 */
export function DocsText({ k, vars, as: Tag = "span", id, className }: DocsTextProps) {
  const text = useT()(k, vars);
  return text ? (
    <Tag id={id} className={className}>
      {text}
    </Tag>
  ) : null;
}

type DocsTextProps = {
  k: MessageKey;
  vars?: Record<string, string | number>;
  as?: "span" | "p" | "h2" | "h3" | "th";
  id?: string;
  className?: string;
};
