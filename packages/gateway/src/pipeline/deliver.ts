// Outbound exactly once (SPEC U3): each part of a logical reply is recorded in the outbox before
// it is sent and marked after. A part found recorded already (a retry, a fallback, a second
// delivery attempt, a restart) is never sent again. A crash between the two marks leaves a
// `pending` row: on restart it is sent again where it provably never left (the adapter reports
// the hand-over to the platform's API, and it had not come) or the platform's send is
// idempotent, and otherwise marked `uncertain` — at most once, never twice.

import type { Logger } from "@iris/llm";
import type { ActionButton, OutboundFile, PlatformAdapter, SendOptions } from "../adapter.js";
import type { ChatAddress } from "../message.js";
import type { GatewayState } from "../state/index.js";
import { splitMessage } from "./chunk.js";

const SEND_ATTEMPTS = 3;
/** The outbox key's end that marks a file: its bytes are not kept, so it is never sent again. */
const FILE_PART = "#file";

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
      const buttons = k === parts.length - 1 ? opts.buttons : undefined;
      await this.sendRecorded(key, (o) =>
        this.adapter.send(to, part, { ...o, ...(buttons?.length ? { buttons } : {}) }),
      );
      sent++;
    }
    return { sent, skipped };
  }

  /**
   * Sends a file once (the send_file tool): recorded like a reply's part, under `logicalKey`. A
   * crash while it was on its way leaves it uncertain, never sent twice (its bytes are not kept).
   */
  async deliverFile(logicalKey: string, to: ChatAddress, file: OutboundFile): Promise<"sent" | "skipped"> {
    const adapter = this.adapter;
    if (!adapter.sendFile) throw new Error(`${adapter.platform} cannot send files`);
    const sendFile = adapter.sendFile.bind(adapter);
    const caption = file.caption && adapter.render ? adapter.render(file.caption) : file.caption;
    const key = `${logicalKey}${FILE_PART}`;
    const row = await this.state.recordOutbound({
      logicalKey: key,
      platform: to.platform,
      chatId: to.chatId,
      threadId: to.threadId ?? null,
      text: `📎 ${file.name}${caption ? `\n${caption}` : ""}`,
    });
    if (!row.fresh) return "skipped";
    const shown = { ...file, ...(caption ? { caption } : {}) };
    await this.sendRecorded(key, (o) => sendFile(to, shown, o));
    return "sent";
  }

  private async sendRecorded(key: string, send: (opts: SendOptions) => Promise<unknown>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await send({ key, handingOver: () => this.state.markOutboundHanded(key) });
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
      if ((!this.adapter.idempotentSend && !neverLeft) || row.logicalKey.endsWith(FILE_PART)) {
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
      const ok = await this.sendRecorded(row.logicalKey, (o) => this.adapter.send(to, row.text, o)).then(
        () => true,
        () => false,
      );
      if (ok) resent++;
      else uncertain++;
    }
    return { resent, uncertain };
  }
}
