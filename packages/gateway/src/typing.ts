// A typing indicator before the first token (SPEC G1): platforms that have one (Telegram's
// "typing…" chat action, Discord's and Slack's typing events) show it from the moment a turn
// starts; it lapses by itself after a few seconds on those platforms, so it is repeated until the
// model's first text, the reply or the end of the turn. Platforms without one (IRC) get nothing;
// the web chat shows the same in its draft (draft-status.ts).
import type { PlatformAdapter } from "./adapter.js";
import type { ChatAddress } from "./message.js";

/** How often the indicator is renewed unless the platform says (Telegram's lasts 5 s). */
export const TYPING_REPEAT_MS = 4000;

export class TypingIndicator {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly adapter: PlatformAdapter,
    private readonly to: ChatAddress,
  ) {}

  /** Shows it now and keeps it shown until stop(). */
  start(): void {
    if (!this.adapter.typing || this.timer) return;
    this.show();
    this.timer = setInterval(() => this.show(), this.adapter.limits.typingRepeatMs ?? TYPING_REPEAT_MS);
    this.timer.unref();
  }

  /** The first token came, or the turn ended. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private show(): void {
    // A failed indicator is cosmetic: it must never fail the turn.
    void Promise.resolve()
      .then(() => this.adapter.typing?.(this.to))
      .catch(() => {});
  }
}
