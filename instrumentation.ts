/**
 * Next.js start-up hook. Node-only work (database, worker) lives in instrumentation.node.ts so the
 * edge bundle never sees it.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServerProcess } = await import("./instrumentation.node");
    await startServerProcess();
  }
}
