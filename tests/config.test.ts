import { afterEach, describe, expect, it } from "vitest";
import { assertValidConfig } from "@/lib/config";

const saved = process.env.APP_TIMEZONE;
afterEach(() => {
  if (saved === undefined) delete process.env.APP_TIMEZONE;
  else process.env.APP_TIMEZONE = saved;
});

describe("start-up configuration check", () => {
  it("accepts IANA zones and refuses a typo with a clear message", () => {
    process.env.APP_TIMEZONE = "America/Bogota";
    expect(() => assertValidConfig()).not.toThrow();
    process.env.APP_TIMEZONE = "Mars/Base";
    expect(() => assertValidConfig()).toThrow(/APP_TIMEZONE="Mars\/Base" no es una zona horaria IANA válida/);
  });
});
