// Plain function, apart from the React provider: importable from anywhere (tests, server code).
import { IntlMessageFormat, type Formatters } from "intl-messageformat";
import { numberFormat } from "./numbers-format";
import { intlLocale } from "./intl-locale";
import type { Locale } from "./index";

/**
 * The catalogues' message syntax, compiled by FormatJS's intl-messageformat (ICU MessageFormat):
 * - `{name}` a value; `{count, plural, one {# mensaje} other {# mensajes}}` a count, `#` written
 *   as a number in the UI's language ("1.234" / "1,234"): pass counts as numbers, not text;
 * - `{{key}}` a literal template-parameter label: "{{2}}" when `key` is given, else "{{key}}" as
 *   written (not ICU: it is quoted before compiling, so a plural branch cannot be just `{{name}}`);
 * - an apostrophe is always a plain apostrophe ("customer's"): the catalogues use no ICU quoting.
 * A text that does not compile, or lacks a value it names, comes back as written: never throws.
 */

type Vars = Record<string, string | number>;

const plurals = new Map<string, Intl.PluralRules>();
function pluralRules(tag: string, type: Intl.PluralRuleType): Intl.PluralRules {
  const key = `${tag}|${type}`;
  let rules = plurals.get(key);
  if (!rules) {
    rules = new Intl.PluralRules(tag, { type });
    plurals.set(key, rules);
  }
  return rules;
}

/** `#` and `{n, number}` through the UI's one number format (Spanish groups "1.234"), per UI language. */
const formattersByLocale = new Map<string, Formatters>();
function formattersFor(locale: string): Formatters {
  let f = formattersByLocale.get(locale);
  if (!f) {
    f = {
      getNumberFormat: (_locales, opts) => numberFormat(locale, opts ?? {}),
      getDateTimeFormat: (locales, opts) => new Intl.DateTimeFormat(locales, opts),
      getPluralRules: (locales, opts) => pluralRules(String([locales].flat()[0]), opts?.type ?? "cardinal"),
    };
    formattersByLocale.set(locale, f);
  }
  return f;
}

const LABEL = /\{\{(\w+)\}\}/g;

/** The ICU source of a catalogue text: apostrophes literal, `{{key}}` labels quoted around their value. */
function toIcu(text: string, vars: Vars | undefined): string {
  return text.replace(/'/g, "''").replace(LABEL, (_whole, key: string) => (vars && key in vars ? `'{{'{${key}}'}}'` : `'{{${key}}}'`));
}

// Compiling is the costly part and a list formats the same text for every row: one per (locale, source).
const MAX_CACHED = 2000;
const compiled = new Map<string, IntlMessageFormat | null>();

function compile(source: string, locale: string): IntlMessageFormat | null {
  const key = `${locale}\u0000${source}`;
  let message = compiled.get(key);
  if (message === undefined) {
    try {
      message = new IntlMessageFormat(source, intlLocale(locale), undefined, { formatters: formattersFor(locale) });
    } catch {
      message = null;
    }
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(key, message);
  }
  return message;
}

/** Whether a catalogue text compiles under ICU (the catalogue test walks every text with it). */
export function compiles(text: string, locale: Locale | string = "es"): boolean {
  return compile(toIcu(text, undefined), String(locale)) !== null;
}

/** A catalogue text with its values filled in, in `locale` (Spanish by default). */
export function format(text: string, vars?: Vars, locale: Locale | string = "es"): string {
  if (!text.includes("{") && !text.includes("'")) return text;
  const message = compile(toIcu(text, vars), String(locale));
  if (!message) return text;
  try {
    const out = message.format(vars);
    return typeof out === "string" ? out : text;
  } catch {
    return text;
  }
}
