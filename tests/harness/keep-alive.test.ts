import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
/**
 * The test server itself: a request refused before its body is read (here 401 on a 200 KB body)
 * must not leave the kept-alive connection stalled for the client's next request. Generated
 * bad input hit this in CI as ECONNRESET or a hung request.
 */
it("a refused unread body does not stall the next request on the connection", async () => {
  const big = JSON.stringify({ title: "x".repeat(200_000) });
  for (let i = 0; i < 5; i++) {
    const res = await fetch(server.url + "/api/v1/contacts/labels", {
      method: "POST",
      headers: { "content-type": "text/plain", authorization: "Bearer nope" },
      body: big,
      signal: AbortSignal.timeout(5000),
    });
    expect(res.status).toBeLessThan(500);
    await res.text();
  }
});
