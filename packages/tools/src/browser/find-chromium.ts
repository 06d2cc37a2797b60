// Which Chromium to drive: browser.executable, else the first of the usual names on PATH. When
// none is there the error names what to install (never a download: Iris does not fetch browsers).
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

const NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

export class ChromiumMissingError extends Error {
  constructor(detail: string) {
    super(
      `${detail}: the browser tools need Chromium. Install it (Debian/Ubuntu: apt-get install chromium; Fedora: dnf install chromium) or set browser.executable in config.yaml`,
    );
    this.name = "ChromiumMissingError";
  }
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findChromium(configured: string | undefined, pathVar: string | undefined): string {
  if (configured) {
    if (executable(configured)) return configured;
    throw new ChromiumMissingError(`browser.executable ${configured} is not an executable file`);
  }
  for (const dir of (pathVar ?? "").split(delimiter).filter(Boolean))
    for (const name of NAMES) {
      const candidate = join(dir, name);
      if (executable(candidate)) return candidate;
    }
  throw new ChromiumMissingError(`none of ${NAMES.join(", ")} is on PATH`);
}
