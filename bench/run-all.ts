// `npm run bench`: every bench in this folder, one after the other, each in its own process so
// one bench's warm caches and heap do not flatter the next. Figures go to stdout; see README.md.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const benches = readdirSync(here)
  .filter((f) => f.endsWith(".ts") && f !== "run-all.ts")
  .sort();
let failed = 0;
for (const file of benches) {
  process.stdout.write(`\n== bench/${file}\n`);
  const r = spawnSync(process.execPath, ["--import", "tsx", join(here, file)], { stdio: "inherit" });
  if (r.status !== 0) {
    failed += 1;
    process.stderr.write(`bench/${file} exited ${r.status ?? r.signal}\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
