// A platform double for runner tests: inbound events are pushed by the test, sends are recorded.
// (The real platforms are tested against real servers: irc.e2e.test.ts.)
import type { PlatformAdapter, SendOptions, SendResult } from "../src/adapter.js";
import type { ChatAddress, InboundMessage } from "../src/message.js";
import { utf16Length } from "../src/pipeline/chunk.js";

export class MemoryAdapter implements PlatformAdapter {
  readonly platform = "mem";
  readonly limits: PlatformAdapter["limits"] = {
    maxMessage: 200,
    measure: utf16Length,
    minEditIntervalMs: 0,
  };
  typing?: (to: ChatAddress) => void;
  readonly sent: { to: ChatAddress; text: string }[] = [];
  readonly edits: { id: string; text: string }[] = [];
  private deliver: ((m: InboundMessage) => void) | undefined;
  private next = 0;
  failNext = 0;
  /** Set by a test: send() reports the hand-over to the platform, as the queued adapters do. */
  reportsHandOver = false;

  constructor(
    readonly idempotentSend = false,
    withEdit = false,
  ) {
    if (!withEdit) this.edit = undefined;
  }

  botNames(): string[] {
    return ["bot"];
  }
  async start(onMessage: (m: InboundMessage) => void): Promise<void> {
    this.deliver = onMessage;
  }
  async stop(): Promise<void> {
    this.deliver = undefined;
  }
  async send(to: ChatAddress, text: string, opts: SendOptions = {}): Promise<SendResult> {
    if (this.reportsHandOver) await opts.handingOver?.();
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error("connection reset");
    }
    this.sent.push({ to, text });
    return { messageId: `s${++this.next}` };
  }
  edit?: (to: ChatAddress, id: string, text: string) => Promise<void> = async (_to, id, text) => {
    this.edits.push({ id, text });
  };
  push(m: InboundMessage): void {
    this.deliver?.(m);
  }
  textsTo(chatId: string): string[] {
    return this.sent.filter((s) => s.to.chatId === chatId).map((s) => s.text);
  }
}

let seq = 0;
export function message(extra: Partial<InboundMessage> = {}): InboundMessage {
  return {
    platform: "mem",
    chatType: "dm",
    chatId: "ann",
    userId: "ann",
    userName: "ann",
    text: "hi",
    attachments: [],
    messageId: `m${++seq}`,
    ...extra,
  };
}
