// Where a Mattermost bot's catch-up starts (SPEC G1, U3): the server time of the newest post taken
// in, less a margin, kept in a file between runs. After a restart, or when the server could not
// resume the WebSocket, the posts after it are fetched over REST: what was said meanwhile is
// answered, and what was answered already comes again only within the margin, where the runner's
// inbound ledger (by post id) drops it. A first start begins at the server's clock: no history.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Posts this much older than the newest one taken are fetched again (claimed ones are dropped). */
export const SINCE_MARGIN_MS = 5000;

export class Since {
  private value: number | undefined;

  constructor(private readonly file: string) {
    try {
      const n = Number(readFileSync(file, "utf8").trim());
      if (Number.isFinite(n) && n > 0) this.value = n;
    } catch {
      // no file yet: a first start
    }
  }

  /** The saved point, or undefined on a first start. */
  get saved(): number | undefined {
    return this.value;
  }

  /** A first start: from the server's clock now. */
  begin(serverNow: number): void {
    if (this.value === undefined) this.write(serverNow);
  }

  /** A post created at `createAt` was taken in. */
  took(createAt: number): void {
    const v = createAt - SINCE_MARGIN_MS;
    if (this.value === undefined || v > this.value) this.write(v);
  }

  private write(v: number): void {
    this.value = v;
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileSync(this.file, String(v), { mode: 0o600 });
  }
}
