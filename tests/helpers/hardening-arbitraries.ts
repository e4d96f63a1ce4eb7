import fc from "fast-check";

/** Strings that have broken parsers, databases and path checks elsewhere. */
export const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "x\uDC00y",
  "\u202Eevil\u202C",
  "مرحبا بالعالم",
  "👩‍👩‍👧‍👦",
  "\uFEFF1",
  "' OR 1=1 --",
  "'; DROP TABLE messages; --",
  "1; SELECT pg_sleep(5)",
  "\\x00\\'",
  "$1",
  "%s%n%x",
  "{{1}}",
  "__proto__",
  "constructor",
  "NaN",
  "-1",
  "0",
  "2147483648",
  "99999999999999999999",
  "1e309",
  "true",
  "null",
  "../../../../etc/passwd",
  "..%2f..%2fetc%2fpasswd",
  "%2e%2e/%2e%2e/x.pdf",
  "....//....//x.pdf",
  "C:\\Windows\\win.ini",
  "x".repeat(5000),
];

/** media_path values that try to leave the team's folder, in every spelling we know of. */
export function traversalPaths(teamId: number, otherTeamId: number): string[] {
  const own = `uploads/team${teamId}/`;
  return [
    `${own}../team${otherTeamId}/x.pdf`,
    `uploads/team${otherTeamId}/x.pdf`,
    `${own}%2e%2e/team${otherTeamId}/x.pdf`,
    `${own}%2E%2E%2Fteam${otherTeamId}%2Fx.pdf`,
    `${own}%252e%252e/team${otherTeamId}/x.pdf`,
    `${own}..\\team${otherTeamId}\\x.pdf`,
    `uploads\\team${teamId}\\..\\team${otherTeamId}\\x.pdf`,
    `${own}..%5cteam${otherTeamId}%5cx.pdf`,
    `${own}x.pdf\u0000.png`,
    `${own}./x.pdf`,
    `/${own}x.pdf`,
    `${own}`,
    `${own}..`,
    `uploads/team${teamId}0/x.pdf`,
    `uploads/team${teamId}/sub/x.pdf`,
    `https://evil.example/x.pdf`,
    `file:///etc/passwd.pdf`,
  ];
}

export const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 40000 }).map((n) => "é".repeat(n)) },
);

/** Any JSON value, biased towards the ones that break things. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, -(2 ** 63), 1.5)) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.integer(), nastyString), { maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 20000 }).map((n) => Array.from({ length: n }, (_, i) => i)) },
  { weight: 1, arbitrary: fc.dictionary(nastyString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
);

/** A JSON body derived from a valid one: a field replaced, removed or added, or something else entirely. */
export function mutatedBody(valid: Record<string, unknown>, extraStrings: string[] = []): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  const value = extraStrings.length ? fc.oneof(nastyValue, fc.constantFrom(...extraStrings)) : nastyValue;
  const withNested = (v: unknown): fc.Arbitrary<unknown> =>
    Array.isArray(v) && v.length && v[0] && typeof v[0] === "object"
      ? fc.tuple(fc.constantFrom(...Object.keys(v[0] as object)), value).map(([k, x]) => [{ ...(v[0] as object), [k]: x }, ...v.slice(1)])
      : value;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(valid) },
    { weight: 5, arbitrary: fc.constantFrom(...keys).chain((k) => withNested(valid[k]).map((x) => ({ ...valid, [k]: x }))) },
    { weight: 2, arbitrary: fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(valid).filter(([key]) => key !== k))) },
    { weight: 1, arbitrary: fc.tuple(nastyString, value).map(([k, x]) => ({ ...valid, [k]: x })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

export type RawBody = { body: string | Uint8Array; contentType: string | null };

/** How a body travels: well-formed JSON, broken JSON, invalid UTF-8, or the wrong content type. */
export function transport(body: fc.Arbitrary<unknown>): fc.Arbitrary<RawBody> {
  const json = body.map((b) => JSON.stringify(b) ?? "null");
  return fc.oneof(
    { weight: 8, arbitrary: json.map((s) => ({ body: s, contentType: "application/json" })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json, fc.nat())
        .map(([s, n]) => ({ body: s.slice(0, n % Math.max(1, s.length)) + "\u0000{", contentType: "application/json" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("", "{", "[1,2", "{'a':1}", "nul", '{"a":1}}', "\uFEFF{}")
        .map((s) => ({ body: s, contentType: "application/json; charset=utf-8" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 64 })
        .map((u) => ({ body: Uint8Array.from([0x7b, 0xff, 0xfe, ...u]), contentType: "application/json" })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          json,
          fc.constantFrom(
            null,
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/jsonx",
            "application/xml",
          ),
        )
        .map(([s, contentType]) => ({ body: s, contentType })),
    },
  );
}

/** A query string from a valid one: values replaced, keys dropped or repeated, junk keys. */
export function mutatedQuery(valid: Record<string, string>): fc.Arbitrary<string> {
  const keys = Object.keys(valid);
  // Past about 16 KB of URL, Node's HTTP parser answers 431 before any route runs.
  const short = nastyString.filter((s) => s.length < 1000);
  const str = fc.oneof(short, fc.integer().map(String));
  const pairs = fc.oneof(
    fc.constant(Object.entries(valid)),
    keys.length
      ? fc.tuple(fc.constantFrom(...keys), str).map(([k, v]) => Object.entries({ ...valid, [k]: v }))
      : fc.constant(Object.entries(valid)),
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...(keys.length ? keys : ["x"])), short), str), { maxLength: 6 }),
  );
  return pairs.map((p) =>
    p
      .map(
        ([k, v]) => `${encodeURIComponent(k.replace(/[\uD800-\uDFFF]/g, "?"))}=${encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, "?"))}`,
      )
      .join("&"),
  );
}

/** Percent-encodings decodeURIComponent refuses (truncated, not hex, not UTF-8). */
export const MALFORMED_PERCENT = ["%", "%ZZ", "%zz", "%E0%A4%A", "%C3", "a%", "%%", "%G1", "%c3%28", "%F0%9F%98"];

/** Session cookies that must count as no session: malformed encodings, NUL, lone surrogates (CESU-8). */
export const BAD_COOKIES = [
  "wa_session=%zz",
  "wa_session=%",
  "wa_session=%E0%A4%A",
  "wa_session=%00",
  "wa_session=a%00b",
  "wa_session=%ED%A0%80",
  "wa_session=%01%00junk",
  "x=1; wa_session=%C3; y=%zz",
  "wa_session=",
  `wa_session=${"%41".repeat(300)}`,
];

/** NUL and lone surrogates, the strings Postgres text and jsonb cannot hold. */
export const UNSTORABLE_STRINGS = ["\u0000", "a\u0000b", "\uD800", "x\uDC00y", "\uDBFF", "ok\u0000\uDFFF"];

type PathKey = string | number;
function stringPaths(v: unknown, at: PathKey[] = []): PathKey[][] {
  if (typeof v === "string") return [at];
  if (Array.isArray(v)) return v.flatMap((x, i) => stringPaths(x, [...at, i]));
  if (v && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => stringPaths(x, [...at, k]));
  return [];
}
function setAt(v: unknown, path: PathKey[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? setAt(x, rest, value) : x));
  const o = v as Record<string, unknown>;
  return { ...o, [head]: setAt(o[head as string], rest, value) };
}

/** A valid body with NUL or a lone surrogate in one of its strings (at any depth) or in a key. */
export function poisonedBody(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const poison = fc.constantFrom(...UNSTORABLE_STRINGS);
  const paths = stringPaths(valid);
  const inKey = fc.tuple(fc.constantFrom(...Object.keys(valid)), poison).map(([k, x]) => ({ ...valid, [`${k}${x}`]: valid[k] }));
  if (!paths.length) return inKey;
  const inValue = fc.tuple(fc.constantFrom(...paths), poison, fc.boolean()).map(([p, x, append]) => {
    const current = p.reduce<unknown>((o, k) => (o as Record<PathKey, unknown>)[k], valid) as string;
    return setAt(valid, p, append ? `${current}${x}` : x);
  });
  return fc.oneof({ weight: 3, arbitrary: inValue }, { weight: 1, arbitrary: inKey });
}
