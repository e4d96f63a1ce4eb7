"use client";
import { useI18n } from "@/lib/i18n";
import { templateDisplayName, templateLanguageName } from "@/lib/templates/display-name";

type Props = {
  name: string;
  /** A language code: shown by its name after the template's. */
  language?: string;
  /** "inline": the slug only in the tooltip (lists); "below": also in small type under the name (where the exact name matters). */
  slug?: "inline" | "below";
  className?: string;
};

/**
 * A template as an agent reads it: "Promo navidad 2026 (español)", its WhatsApp name
 * (`promo_navidad_2026`) kept beside it for whoever matches it against Meta's manager or the API.
 */
export function TemplateName({ name, language, slug = "inline", className }: Props) {
  const { t, locale } = useI18n();
  const display = templateDisplayName(name);
  const lang = language ? ` (${templateLanguageName(language, locale)})` : "";
  return (
    <span className={className} title={t("tpl.slug", { name })} data-testid="template-name" data-template={name}>
      <span className="font-medium">{display}</span>
      {lang}
      {slug === "below" ? (
        <code className="block text-xs font-normal text-slate-600" data-testid="template-slug">
          {name}
        </code>
      ) : null}
    </span>
  );
}
