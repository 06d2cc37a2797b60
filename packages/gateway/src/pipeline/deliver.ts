// Outbound exactly once (SPEC U3): each part of a logical reply is recorded in the outbox before
// it is sent and marked after. A part found recorded already (a retry, a fallback, a second
// delivery attempt, a restart) is never sent again. A crash between the two marks leaves a
// `pending` row: on restart it is sent again where it provably never left (the adapter reports
// the hand-over to the platform's API, and it had not come) or the platform's send is
// idempotent, and otherwise marked `uncertain` — at most once, never twice.

import type { GatewayState } from "@iris/host";
import type { Logger } from "@iris/llm";
import type { ActionButton, PlatformAdapter } from "../adapter.js";
import type { ChatAddress } from "../message.js";
import { splitMessage } from "./chunk.js";

const SEND_ATTEMPTS = 3;

export class Deliverer {
  /** Told after each part: sent, or failed for good (the platform's health, SPEC G1). */
  health?: (ok: boolean, error?: unknown) => void;

  constructor(
    private readonly state: GatewayState,
    private readonly adapter: PlatformAdapter,
    private readonly logger: Logger,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Sends `text` as one logical reply, split at the platform's limit, in order. */
  async deliver(
    logicalKey: string,
    to: ChatAddress,
    text: string,
    opts: { buttons?: readonly ActionButton[] } = {},
  ): Promise<{ sent: number; skipped: number }> {
    const { maxMessage, measure } = this.adapter.limits;
    const shown = this.adapter.render ? this.adapter.render(text) : text;
    const parts = splitMessage(shown.length ? shown : "(empty reply)", maxMessage, measure);
    let sent = 0;
    let skipped = 0;
    for (const [k, part] of parts.entries()) {
      const key = `${logicalKey}#${k}`;
      const row = await this.state.recordOutbound({
        logicalKey: key,
        platform: to.platform,
        chatId: to.chatId,
        threadId: to.threadId ?? null,
        text: part,
      });
      if (!row.fresh) {
        skipped++;
        continue;
      }
      // Buttons go under the last part (the one that asks).
      await this.sendRecorded(key, to, part, k === parts.length - 1 ? opts.buttons : undefined);
      sent++;
    }
    return { sent, skipped };
  }

  private async sendRecorded(
    key: string,
    to: ChatAddress,
    text: string,
    buttons?: readonly ActionButton[],
  ): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.adapter.send(to, text, {
          key,
          handingOver: () => this.state.markOutboundHanded(key),
          ...(buttons?.length ? { buttons } : {}),
        });
        await this.state.markOutbound(key, "sent");
        this.health?.(true);
        return;
      } catch (err) {
        // A send that failed before reaching the platform is retried; after the last attempt the
        // part is marked uncertain (the platform may have it) rather than sent again later.
        if (attempt >= SEND_ATTEMPTS) {
          await this.state.markOutbound(key, "uncertain");
          this.logger.warn("gateway send failed", { key, error: String(err) });
          this.health?.(false, err);
          throw err;
        }
        await this.sleep(250 * 2 ** attempt);
      }
    }
  }

  /** At start: parts a crash left between record and mark. */
  async recover(): Promise<{ resent: number; uncertain: number }> {
    let resent = 0;
    let uncertain = 0;
    for (const row of await this.state.pendingOutbound(this.adapter.platform)) {
      const neverLeft = this.adapter.reportsHandOver === true && row.handedAt === null;
      if (!this.adapter.idempotentSend && !neverLeft) {
        await this.state.markOutbound(row.logicalKey, "uncertain");
        uncertain++;
        continue;
      }
      const to: ChatAddress = {
        platform: row.platform,
        chatId: row.chatId,
        ...(row.threadId ? { threadId: row.threadId } : {}),
      };
      // A part the platform still refuses is left uncertain (sendRecorded marks it); the others go.
      const ok = await this.sendRecorded(row.logicalKey, to, row.text).then(
        () => true,
        () => false,
      );
      if (ok) resent++;
      else uncertain++;
    }
    return { resent, uncertain };
  }
}
