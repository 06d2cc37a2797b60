// The streamed draft of a platform that edits messages in place (Telegram, Discord): one message
// per chat, sent on the first text and edited after, removed when the text goes empty. The reply
// takes the draft over (see take()). The platform gives the three calls; its own queue paces them.
import type { ChatQueue } from "../pipeline/chat-queue.js";

export interface DraftCalls<Id> {
  post(text: string): Promise<Id>;
  edit(id: Id, text: string): Promise<void>;
  remove(id: Id): Promise<void>;
}

export interface Draft<Id> {
  messageId?: Id;
  shown: string;
  closed: boolean;
}

export class EditedDrafts<Id> {
  private readonly drafts = new Map<string, Draft<Id>>();

  /** @param maxText the platform's message limit; a longer draft shows its start. */
  constructor(private readonly maxText: number) {}

  /** The chat's draft, made on the first text; run show() for it inside the chat's queue. */
  of(chat: string): Draft<Id> {
    let d = this.drafts.get(chat);
    if (!d) {
      d = { shown: "", closed: false };
      this.drafts.set(chat, d);
    }
    return d;
  }

  /** The chat's draft brought to `text` in its turn of `queue` (a newer text replaces a waiting one). */
  stream(queue: ChatQueue, chat: string, text: string, calls: DraftCalls<Id>): Promise<void> {
    const draft = this.of(chat);
    return queue.latest(chat, "draft", () => this.show(chat, draft, text, calls));
  }

  /** Brings the draft's message to `text` (skipped when nothing changed or the reply took it). */
  async show(chat: string, draft: Draft<Id>, text: string, calls: DraftCalls<Id>): Promise<void> {
    const shown = text.slice(0, this.maxText);
    if (draft.closed || shown === draft.shown) return;
    if (shown.trim() === "") {
      draft.closed = true;
      if (this.drafts.get(chat) === draft) this.drafts.delete(chat);
      if (draft.messageId !== undefined) await calls.remove(draft.messageId);
      return;
    }
    if (draft.messageId === undefined) draft.messageId = await calls.post(shown);
    else await calls.edit(draft.messageId, shown);
    draft.shown = shown;
  }

  /** The reply is being sent: the chat's draft ends here (its message becomes the reply or goes). */
  take(chat: string): Draft<Id> | undefined {
    const d = this.drafts.get(chat);
    if (d) {
      this.drafts.delete(chat);
      d.closed = true;
    }
    return d;
  }
}
