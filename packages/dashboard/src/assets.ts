// The browser's files, with no build step: htmx and uPlot straight from node_modules, the
// dashboard's own script and style from its public/ folder. Read once at start (about 110 KB).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface Asset {
  type: string;
  body: Buffer;
}

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

export function loadAssets(): Map<string, Asset> {
  // Resolved from this module's own URL: also right inside the CLI's bundle (its node_modules).
  const require = createRequire(import.meta.url);
  const dir = (pkg: string) => dirname(require.resolve(`${pkg}/package.json`));
  const htmx = dir("htmx.org");
  const uplot = dir("uplot");
  const own = join(dir("@iris/dashboard"), "public");
  const files: [string, string, string][] = [
    ["/assets/htmx.js", join(htmx, "dist", "htmx.min.js"), JS],
    ["/assets/uplot.js", join(uplot, "dist", "uPlot.iife.min.js"), JS],
    ["/assets/uplot.css", join(uplot, "dist", "uPlot.min.css"), CSS],
    ["/assets/app.js", join(own, "app.js"), JS],
    ["/assets/style.css", join(own, "style.css"), CSS],
    ["/favicon.ico", join(own, "favicon.svg"), "image/svg+xml"],
  ];
  return new Map(files.map(([route, file, type]) => [route, { type, body: readFileSync(file) }]));
}
