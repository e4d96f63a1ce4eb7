/**
 * `next` values an attacker may put in `/login?next=…`, written as they appear in the address bar
 * (raw query text: the browser and URLSearchParams decode them). Each, followed after sign-in,
 * would leave the site were the redirect rule (lib/http/safe-redirect.ts) checked before one of
 * the browser's normalisations. Shared by the unit test and the Chromium table test.
 */
export const HOSTILE_NEXT: readonly string[] = [
  // The round-2 findings: dot segments collapse to a protocol-relative path after the check.
  "/.//evil.example",
  "/..//evil.example",
  "/%2e//evil.example",
  "/./%5Cevil.example",
  // Variations on the same collapse.
  "/%2E//evil.example",
  "/%2e%2e//evil.example",
  "/.%2e//evil.example",
  "/a/..//evil.example",
  "/a/../..//evil.example",
  "/././/evil.example",
  "/.//evil.example/path?x=1#y",
  "/..%2F/evil.example",
  "/.%2F%2Fevil.example",
  "/%2F/evil.example",
  "/%2F%2Fevil.example",
  // Backslashes, read by the browser as slashes.
  "/%5Cevil.example",
  "/%5C%5Cevil.example",
  "/./%5C%5Cevil.example",
  "/..%5C/evil.example",
  "/.%5C/evil.example",
  "%5C%5Cevil.example",
  // Characters the URL parser drops.
  "/%09/evil.example",
  "/%0A/evil.example",
  "/%0D/evil.example",
  "/.%09//evil.example",
  "/%00//evil.example",
  // Plainly foreign.
  "//evil.example",
  "///evil.example",
  "https://evil.example/",
  "https:evil.example",
  "http:%2F%2Fevil.example",
  "javascript:location='https://evil.example'",
  "data:text/html,<script>location='https://evil.example'</script>",
  "evil.example",
  "%2F%2Fevil.example",
  "/%252e//evil.example",
];
