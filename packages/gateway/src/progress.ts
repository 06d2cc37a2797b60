// Tool progress (SPEC G2, issue: flood limits): one status message per turn, edited in place
// where the platform can edit, with edits no closer than the platform allows; the newest text
// always wins (an edit skipped for the throttle is folded into the next one). Platforms that
// cannot edit get no progress lines at all rather than a flood of them.
import type { PlatformAdapter } from "./adapter.js";
import type { ChatAddress } from "./message.js";

export class ProgressMessage {
  private messageId: string | undefined;
  private lastEdit = 0;
  private latest = "";
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly adapter: PlatformAdapter,
    private readonly to: ChatAddress,
    private readonly now: () => number = Date.now,
  ) {}

  update(text: string): void {
    if (!this.adapter.edit) return;
    this.latest = text;
    if (this.timer) return;
    // Timed from the last flush's start, also while the first send is still on its way (a slow
    // platform would otherwise get one edit per update).
    const wait = this.lastEdit
      ? Math.max(0, this.lastEdit + this.adapter.limits.minEditIntervalMs - this.now())
      : 0;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.chain = this.chain.then(() => this.flush()).catch(() => {});
    }, wait);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    const text = this.latest;
    this.lastEdit = this.now();
    if (!this.messageId) this.messageId = (await this.adapter.send(this.to, text)).messageId;
    else await this.adapter.edit?.(this.to, this.messageId, text);
  }

  /** The turn ended: no more edits. */
  async done(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.chain;
  }
}
