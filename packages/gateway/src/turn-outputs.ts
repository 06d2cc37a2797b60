// A chat turn's outputs (runner.ts): the progress message, typing indicator and, by what the
// platform can do, a streamed draft (web chat), nothing extra (edits: the render edits the
// progress) or a paragraph feed (IRC); opened at the turn's start, closed at its end.
import { createHash } from "node:crypto";
import type { Session } from "@iris/host";
import { type Chat, roundsStored } from "./gateway-chat.js";
import type { InboundMessage } from "./message.js";
import { ParagraphFeed } from "./paragraph-feed.js";
import { ProgressMessage } from "./progress.js";
import { StreamDraft } from "./stream-draft.js";
import { ChatTurnRender } from "./turn-render.js";
import { TypingIndicator } from "./typing.js";

/** `text` null: a turn continued after a restart (its rounds count on from those the store kept). */
export async function openTurnOutputs(
  chat: Chat,
  last: InboundMessage,
  text: string | null,
  session: Session,
): Promise<void> {
  chat.userId = last.userId;
  chat.progress = new ProgressMessage(chat.platform.adapter, chat.addr);
  chat.render = new ChatTurnRender(chat);
  // Platforms without drafts (IRC) keep no copy of the streamed text.
  const { adapter, deliverer } = chat.platform;
  const addr = chat.addr;
  chat.typing = new TypingIndicator(adapter, addr);
  chat.typing.start();
  if (adapter.draft) {
    chat.draft = new StreamDraft(adapter, addr);
    // The web chat's own typing indicator: the draft says so before the model is even called.
    chat.draft.status("✍ writing…");
  } else if (!adapter.edit) {
    // A continued turn's earlier rounds were delivered already: its paragraphs count on from them.
    const roundsBefore = text === null ? roundsStored(await session.history()) : 0;
    chat.feed = new ParagraphFeed(async ({ round, index }, part) => {
      const digest = createHash("sha256").update(part).digest("hex").slice(0, 12);
      await deliverer.deliver(
        `${last.platform}:${last.messageId}:reply:r${round}:p${index}:${digest}`,
        addr,
        part,
      );
    }, roundsBefore);
  }
}

/** Ends the turn's outputs; `replied`: the draft gives way to the delivered answer. */
export async function closeTurnOutputs(chat: Chat, replied: boolean): Promise<void> {
  chat.typing?.stop();
  delete chat.typing;
  delete chat.render;
  delete chat.feed;
  chat.draft?.done(replied);
  delete chat.draft;
  await chat.progress?.done();
  delete chat.progress;
}
