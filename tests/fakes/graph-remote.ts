import { fork } from "node:child_process";
import path from "node:path";

/** Starts tests/fakes/graph-child.ts in a child process and reads its recorded sends over IPC. */
export async function startRemoteFakeGraph() {
  const child = fork(path.join(import.meta.dirname, "graph-child.ts"), [], {
    execArgv: ["--conditions=react-server", "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.on("message", (m: any) => m.type === "ready" && resolve(m.url));
  });
  return {
    url,
    sends: () =>
      new Promise<{ at: number; path: string; body: any }[]>((resolve) => {
        const onMessage = (m: any) => {
          if (m.type !== "sends") return;
          child.off("message", onMessage);
          resolve(m.sends);
        };
        child.on("message", onMessage);
        child.send({ type: "sends" });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}
