import { startFakeGraph } from "./graph";

/**
 * The fake Graph API in its own process (tests/fakes/graph-remote.ts forks this), so arrival
 * times are stamped by an event loop that the code under test cannot stall — like Meta's.
 */
const fake = await startFakeGraph();
process.on("message", (msg: { type: string }) => {
  if (msg.type === "sends") process.send!({ type: "sends", sends: fake.sends().map((r) => ({ at: r.at, path: r.path, body: r.body })) });
});
process.send!({ type: "ready", url: fake.url });
