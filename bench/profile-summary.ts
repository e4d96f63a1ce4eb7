/**
 * Summarises a V8 CPU profile (`npm run bench -- --profile` writes one per server under
 * .data/bench-profiles): self time by package or file, and the hottest functions.
 *
 *   npx tsx bench/profile-summary.ts .data/bench-profiles/CPU.*.cpuprofile
 */
import fs from "node:fs";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
type Profile = { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

function bucket(url: string): string {
  if (!url) return "(native / idle / gc)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  if (url.startsWith("node:")) return "node core";
  const chunk = /\.next\/server\/(.+)$/.exec(url);
  if (chunk) return `.next/server/${chunk[1].replace(/\[[^\]]+\]__/g, "").slice(0, 60)}`;
  return url.replace(/^file:\/\//, "").slice(-60);
}

const file = process.argv[2];
if (!file) {
  console.error("usage: tsx bench/profile-summary.ts <file.cpuprofile>");
  process.exit(2);
}
const p: Profile = JSON.parse(fs.readFileSync(file, "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
p.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idle = [...selfUs.entries()].filter(([id]) => byId.get(id)!.callFrame.functionName === "(idle)").reduce((a, [, v]) => a + v, 0);

const groups = new Map<string, number>();
const funcs = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  if (n.callFrame.functionName === "(idle)") continue;
  const g = bucket(n.callFrame.url);
  groups.set(g, (groups.get(g) ?? 0) + us);
  const f = `${n.callFrame.functionName || "(anonymous)"} ${g}:${n.callFrame.lineNumber + 1}`;
  funcs.set(f, (funcs.get(f) ?? 0) + us);
}
const busy = total - idle;
const pct = (us: number) => `${((us / busy) * 100).toFixed(1)}%`.padStart(6);
console.log(
  `profile ${((p.endTime - p.startTime) / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s\n`,
);
console.log("self time by package / file:");
for (const [g, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(us)}  ${g}`);
console.log("\nhottest functions (self):");
for (const [f, us] of [...funcs].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${pct(us)}  ${f}`);
