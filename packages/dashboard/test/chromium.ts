// Headless Chromium for the dashboard tests (as the web chat tests launch it): Debian's `chromium` driven by playwright-core (never
// `playwright install`: browsers are not downloaded). Without chromium the browser tests skip on
// a developer's machine but fail under CI=true (.ci/run installs it).
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { type Browser, chromium } from "playwright-core";

/** The chromium executable on PATH (or IRIS_CHROMIUM), if any. */
export function chromiumPath(): string | undefined {
  if (process.env.IRIS_CHROMIUM) return process.env.IRIS_CHROMIUM;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    for (const name of ["chromium", "chromium-browser"]) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {}
    }
  }
  return undefined;
}

/** describe.skipIf(…) argument: skip only outside CI. */
export function skipWithoutChromium(): boolean {
  if (chromiumPath()) return false;
  if (process.env.CI === "true")
    throw new Error(
      "chromium is not installed: the dashboard tests need it (apt-get install -y chromium; .ci/run does)",
    );
  return true;
}

export function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error("chromium is not installed");
  return chromium.launch({
    executablePath,
    timeout: 120_000,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
