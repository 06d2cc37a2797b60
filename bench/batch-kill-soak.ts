// `iris batch` under kill -9 (SPEC D4, E4): 200 items whose one tool call appends the item's key
// to a file, SIGKILL at ten random points (while an item waits for its model, or inside a tool
// right after its effect) and --resume after each. Figures: items with exactly one row, side
// effects that ran exactly once, items ended effect_outcome_uncertain, runs. Exits non-zero when
// an item has no row or two, or an effect ran twice. The CI version is
// packages/batch/test/kill-resume.e2e.test.ts (fewer items and kills).
// Run: npx tsx bench/batch-kill-soak.ts [--items 200] [--kills 10] [--concurrency 8] [--seed N]   (after `npm run build`)
import { counts, type KillPoint, killAndResume } from "../packages/batch/test/kill-resume.js";
import { startFakeLlm, tempDir } from "../packages/testkit/src/index.js";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} needs a positive whole number`);
  return v;
}
const ITEMS = arg("items", 200);
const KILLS = arg("kills", 10);
const CONCURRENCY = arg("concurrency", 8);
let seed = arg("seed", Date.now() % 100_000);
const startSeed = seed;
/** A small deterministic generator, so a failing soak can be replayed with its --seed. */
function random(): number {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
}
const kills: KillPoint[] = Array.from({ length: KILLS }, () => ({
  at: 1 + Math.floor(random() * ITEMS * 2 * 0.9),
  mode: random() < 0.5 ? "model" : "tool",
}));

const fake = await startFakeLlm();
const dir = tempDir("iris-bench-batch-kill");
try {
  const r = await killAndResume({ fake, dir: dir.path, items: ITEMS, kills, concurrency: CONCURRENCY });
  const rows = counts(r.rows.map((x) => x.key));
  const effects = counts(r.effects);
  const oneRow = r.keys.filter((k) => rows.get(k) === 1).length;
  const once = r.keys.filter((k) => effects.get(k) === 1).length;
  const twice = r.keys.filter((k) => (effects.get(k) ?? 0) > 1).length;
  const uncertain = r.rows.filter((x) => x.termination_reason === "effect_outcome_uncertain").length;
  console.log(`seed                     ${startSeed}`);
  console.log(`kills done               ${r.killsDone} of ${KILLS} (runs ${r.runs})`);
  console.log(`items with one row       ${oneRow} / ${ITEMS}   target ${ITEMS}`);
  console.log(`effects exactly once     ${once} / ${ITEMS}   target ${ITEMS}`);
  console.log(`effects run twice        ${twice}   target 0`);
  console.log(`ended uncertain          ${uncertain}   (a kill inside a running tool)`);
  if (oneRow !== ITEMS || once !== ITEMS || fake.violations.length) {
    console.error(r.stderr.slice(-4000));
    process.exitCode = 1;
  }
} finally {
  await fake.close();
  dir.cleanup();
}
