import { describe, expect, it } from "vitest";
import { parseLiveEvent } from "@/lib/events/catalogue";

/**
 * The dashboard's one live-event handler (lib/api-client/live-events.ts) patches its caches only
 * with what parseLiveEvent returns: the payload parsed with the event catalogue's schema of its
 * type, or null for a payload that does not fit, which the handler sets aside.
 */
describe("parseLiveEvent, the live-event handler's only way to read a payload", () => {
  it("returns the event, typed by its type, when its data fits", () => {
    expect(parseLiveEvent("conversation.read", { id: 7, unread_count: 0 })).toEqual({
      event: "conversation.read",
      data: { id: 7, unread_count: 0 },
    });
    const status = parseLiveEvent("message.status", {
      id: 9,
      update_id: "0b6c1c9e-2f7a-4a55-9d53-0f5f6f3f2a11",
      status: "FAILED",
      error: { code: 131050, title: "Stopped marketing" },
    });
    expect(status?.event === "message.status" && status.data.error?.code).toBe(131050);
  });

  it("returns null when the data does not fit its type (a wrong type, a missing key, another type's shape)", () => {
    expect(parseLiveEvent("conversation.read", { id: "7", unread_count: 0 })).toBeNull();
    expect(parseLiveEvent("conversation.updated", { id: 7, status: "archived" })).toBeNull();
    expect(parseLiveEvent("contact.labels", { contact_id: 3 })).toBeNull();
    expect(parseLiveEvent("message.created", { id: 7, unread_count: 0 })).toBeNull();
    expect(parseLiveEvent("note.created", null)).toBeNull();
  });

  it("drops keys its schema does not know, so a cache never receives them", () => {
    expect(parseLiveEvent("conversation.read", { id: 7, unread_count: 0, extra: "x" })).toEqual({
      event: "conversation.read",
      data: { id: 7, unread_count: 0 },
    });
  });
});
