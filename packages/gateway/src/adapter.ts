// The one interface every platform implements (SPEC G1; ARCHITECTURE.md "Each gateway adapter
// passes one contract suite"). The runner does everything else: authorisation, mentions,
// sessions, splitting, dedupe, the outbox.
import type { ChatAddress, InboundMessage } from "./message.js";

export interface SendResult {
  /** The platform's id of the sent message, when it gives one (needed to edit it later). */
  messageId?: string;
}

export interface PlatformLimits {
  /** The longest message, measured by `measure` (characters, or bytes of a protocol line). */
  maxMessage: number;
  /** How a text's size counts against `maxMessage`. */
  measure(text: string): number;
  /** The shortest time between two edits of one message (flood limits), in ms. */
  minEditIntervalMs: number;
}

export interface PlatformAdapter {
  readonly platform: string;
  readonly limits: PlatformLimits;
  /** Whether a send can be repeated without showing twice (an idempotency key). */
  readonly idempotentSend: boolean;
  /** Names the bot answers to in group chats (its nick, its display name). */
  botNames(): string[];
  /** Connects and delivers every inbound event to `onMessage` until stop(). */
  start(onMessage: (msg: InboundMessage) => void): Promise<void>;
  stop(): Promise<void>;
  send(to: ChatAddress, text: string): Promise<SendResult>;
  /** Edits a sent message in place; absent where the platform cannot. */
  edit?(to: ChatAddress, messageId: string, text: string): Promise<void>;
}
