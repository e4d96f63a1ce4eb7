/** Prints a results file as the Markdown table of the bench logs (bench/log/): `npx tsx bench/print.ts [file]`. */
import fs from "node:fs";
import path from "node:path";
import { tableLines, type Row } from "./report";

const file = process.argv[2] ?? path.join(import.meta.dirname, "results", "latest.json");
const report = JSON.parse(fs.readFileSync(file, "utf8"));
const m = report.machine;
console.log(
  `Run of ${report.date} (${report.mode.scale ? `${report.mode.scale} (--scale)` : report.mode.quick ? "quick" : "full"} data set, ${report.mode.database}, ${report.mode.durationSeconds} s per load; ` +
    `${m.cpus} CPUs, Node ${m.node}, load average ${m.loadAvgStart.map((x: number) => x.toFixed(1)).join("/")} at start, ` +
    `${m.loadAvgEnd.map((x: number) => x.toFixed(1)).join("/")} at the end).`,
);
if (report.dataset) {
  const t = report.dataset.timingsMs;
  const s = Object.entries(t)
    .map(([k, v]) => `${k} ${((v as number) / 1000).toFixed(1)} s`)
    .join(", ");
  console.log(
    `Data set: ${report.dataset.sizes.messages.toLocaleString("en")} messages, ${report.dataset.sizes.contacts.toLocaleString("en")} contacts (${s}).\n`,
  );
}
console.log(tableLines(report.results as Row[]).join("\n"));
// A --replica run's reading of its table (bench/replica-mode.ts replicaSummary).
if (report.summary) console.log("\n" + (report.summary as string[]).join("\n"));
