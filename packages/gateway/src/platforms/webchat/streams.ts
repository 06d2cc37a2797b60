// The web chat's open event streams (SSE), per chat. A stream starts with the chat's history
// (from the store), then the approval that still waits and the draft being written, then live
// events. Per-chat state is bounded: only a waiting approval and the current draft are kept, and
// a chat's entry goes when it has neither and no stream is open.
import type { ServerResponse } from "node:http";
import type { HistoryLine } from "../../adapter.js";
import type { ChatType } from "../../message.js";

export interface WebChat {
  chatType: ChatType;
  chatId: string;
}

interface Button {
  label: string;
  text: string;
}

export type WebEvent =
  | {
      type: "message";
      role: "user" | "assistant";
      key: string;
      text: string;
      user?: string;
      buttons?: Button[];
    }
  | { type: "status"; id: string; text: string }
  | { type: "draft"; text: string };

interface ChatState {
  streams: Set<ServerResponse>;
  ask?: { key: string; text: string; buttons: Button[] };
  draft?: string;
}

const KEEPALIVE_MS = 15_000;

export class ChatStreams {
  private readonly chats = new Map<string, ChatState>();
  private readonly keepalive: NodeJS.Timeout;

  constructor() {
    this.keepalive = setInterval(() => {
      for (const c of this.chats.values()) for (const res of c.streams) res.write(": keepalive\n\n");
    }, KEEPALIVE_MS);
    this.keepalive.unref();
  }

  open(res: ServerResponse, chat: WebChat, lines: HistoryLine[]): void {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-accel-buffering": "no",
    });
    const state = this.state(chat.chatId);
    write(res, { type: "history", lines, ask: state.ask, draft: state.draft });
    state.streams.add(res);
    res.on("close", () => {
      state.streams.delete(res);
      this.forgetIfEmpty(chat.chatId);
    });
  }

  publish(chatId: string, event: WebEvent): void {
    const state = this.state(chatId);
    if (event.type === "draft") state.draft = event.text === "" ? undefined : event.text;
    if (event.type === "message" && event.role === "assistant") {
      // A bot message ends the draft (it is the reply) unless it asks for an approval mid-turn,
      // and it replaces any approval before it (answered).
      if (!event.buttons) state.draft = undefined;
      state.ask = event.buttons ? { key: event.key, text: event.text, buttons: event.buttons } : undefined;
    }
    for (const res of state.streams) write(res, event);
    this.forgetIfEmpty(chatId);
  }

  /** Chats with state in memory (bounded: tests). */
  get size(): number {
    return this.chats.size;
  }

  closeAll(): void {
    clearInterval(this.keepalive);
    for (const c of this.chats.values()) for (const res of c.streams) res.end();
    this.chats.clear();
  }

  private state(chatId: string): ChatState {
    let s = this.chats.get(chatId);
    if (!s) {
      s = { streams: new Set() };
      this.chats.set(chatId, s);
    }
    return s;
  }

  private forgetIfEmpty(chatId: string): void {
    const s = this.chats.get(chatId);
    if (s && s.streams.size === 0 && !s.ask && s.draft === undefined) this.chats.delete(chatId);
  }
}

function write(res: ServerResponse, event: unknown): void {
  res.write(`data: ${JSON.stringify(event)}\n\n`);
}
