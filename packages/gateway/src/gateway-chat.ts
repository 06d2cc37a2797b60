// The runner's per-platform and per-chat state (runner.ts), and the small helpers its parts share.
import type { Message } from "@iris/llm";
import type { ActionButton, PlatformAdapter } from "./adapter.js";
import type { ChatSessions } from "./chats.js";
import type { ChatLane } from "./lane.js";
import type { ChatAddress } from "./message.js";
import type { ParagraphFeed } from "./paragraph-feed.js";
import type { Deliverer } from "./pipeline/deliver.js";
import type { ProgressMessage } from "./progress.js";
import type { StreamDraft } from "./stream-draft.js";
import type { ChatTurnRender } from "./turn-render.js";
import type { TypingIndicator } from "./typing.js";

export interface Platform {
  adapter: PlatformAdapter;
  deliverer: Deliverer;
  chats: ChatSessions;
}

export interface Chat {
  lane: ChatLane;
  platform: Platform;
  addr: ChatAddress;
  /** Who sent the message the running turn answers (who may answer its questions). */
  userId: string;
  progress?: ProgressMessage;
  draft?: StreamDraft;
  /** Platforms that can neither edit nor show drafts (IRC) get finished paragraphs as they come. */
  feed?: ParagraphFeed;
  /** The platform's typing indicator, from the turn's start to the first token. */
  typing?: TypingIndicator;
  /** The running turn's events into the outputs above (turn-render.ts). */
  render?: ChatTurnRender;
}

/** The model calls of the session's last turn that the store kept (assistant messages after its
 * last user message); `history`: the session's (Session.history()). */
export function roundsStored(history: readonly Message[]): number {
  const lastUser = history.findLastIndex((m) => m.role === "user");
  return history.slice(lastUser + 1).filter((m) => m.role === "assistant").length;
}

export function approvalButtons(requestId: string): ActionButton[] {
  return [
    { label: "Approve", action: { requestId, answer: "once" } },
    { label: "Approve for this session", action: { requestId, answer: "session" } },
    { label: "Deny", action: { requestId, answer: "deny" } },
  ];
}

export function addressOf(m: { platform: string; chatId: string; threadId?: string | null }): ChatAddress {
  return { platform: m.platform, chatId: m.chatId, ...(m.threadId ? { threadId: m.threadId } : {}) };
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
