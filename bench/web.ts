// The web and browser tools' speed (issue 27): extraction time per page of the local test site
// (HTML → Markdown, the PDF, EUC-KR) through web_extract's pipeline, first call (module load)
// apart from warm calls, and the browser's launch, navigation and snapshot time on the system's
// Chromium (skipped with a note when none is installed).
//   extract   per page: first call, then the median (min–max) of --rounds warm calls
//   browser   launch + first navigate, then per navigate and per browser_snapshot: median (min–max)
// Run: npx tsx bench/web.ts [--rounds 20]
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { startTestSite } from "../packages/testkit/src/index.js";
import { findChromium } from "../packages/tools/src/browser/find-chromium.js";
import { browserPool, closeBrowsers } from "../packages/tools/src/browser/pool.js";
import { snapshotText } from "../packages/tools/src/browser/run.js";
import { toolEnvironment } from "../packages/tools/src/environment.js";
import { extractPage } from "../packages/tools/src/web/extract.js";
import { localWorkspace } from "../packages/tools/src/workspace/local.js";

const i = process.argv.indexOf("--rounds");
const rounds = i >= 0 ? Number(process.argv[i + 1]) : 20;
if (!Number.isInteger(rounds) || rounds <= 0) throw new Error("--rounds needs a positive whole number");

const ms = (n: number) => `${n.toFixed(1)} ms`;
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${ms(s[Math.floor(s.length / 2)] ?? Number.NaN)} (min ${ms(s[0] ?? 0)}, max ${ms(s.at(-1) ?? 0)}, n=${s.length})`;
};

const site = await startTestSite();
const env = toolEnvironment({
  web: { policy: { allowPrivate: false, allowHosts: [new URL(site.baseUrl).host] } },
});
process.stdout.write(`web bench: load average ${loadavg()[0]?.toFixed(2)}, ${rounds} rounds\n`);
try {
  for (const path of [
    "/news/seoul-weather",
    "/docs/streams",
    "/legacy/euc-kr",
    "/docs/report.pdf",
    "/huge",
  ]) {
    const once = async () => {
      const t0 = performance.now();
      await extractPage(env.fetch, site.url(path), { maxChars: 100_000, timeoutMs: 20_000 });
      return performance.now() - t0;
    };
    const first = await once();
    const warm: number[] = [];
    for (let r = 0; r < rounds; r++) warm.push(await once());
    process.stdout.write(`extract ${path.padEnd(20)} first ${ms(first)}, warm ${summary(warm)}\n`);
  }
  let chromium: string | undefined;
  try {
    chromium = findChromium(undefined, process.env.PATH);
  } catch (err) {
    process.stdout.write(`browser: skipped (${err instanceof Error ? err.message : String(err)})\n`);
  }
  if (chromium) {
    const benv = toolEnvironment({ env: { PATH: process.env.PATH }, web: env.web });
    const t0 = performance.now();
    const session = await browserPool(benv).session(localWorkspace());
    const page = session.pages[0];
    if (!page) throw new Error("no page");
    await page.goto(site.url("/form"));
    process.stdout.write(`browser launch + first navigate ${ms(performance.now() - t0)} (${chromium})\n`);
    const nav: number[] = [];
    const snap: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const a = performance.now();
      await page.goto(site.url(r % 2 ? "/form" : "/news/seoul-weather"), { waitUntil: "domcontentloaded" });
      const b = performance.now();
      await snapshotText(page);
      snap.push(performance.now() - b);
      nav.push(b - a);
    }
    process.stdout.write(`browser navigate ${summary(nav)}\nbrowser snapshot ${summary(snap)}\n`);
    await closeBrowsers(benv);
  }
} finally {
  await site.close();
}
