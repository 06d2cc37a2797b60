// A long answer on a platform that cannot edit or show a draft (IRC) arrives paragraph by
// paragraph as the model writes it, not all at once at the end (SPEC G1). A paragraph is done
// at a blank line outside a code fence; each is delivered through the outbox under its own key
// (exactly once over restarts): its round of the turn, its place in that round and its text, so
// a turn continued after a restart (counting on from the rounds the store kept) sends exactly the
// paragraphs not sent yet — a repeat of one already sent is skipped, a new one never is. At the end only what was not delivered yet goes out. A retry
// that discards streamed text (stream_reset) after a paragraph went out stops the feed: the
// final answer then goes whole, since what was shown may not be a prefix of it.
/** Where a paragraph stands in its turn: the model call (round) and its place in that call's text. */
export interface ParagraphPart {
  round: number;
  index: number;
}

export class ParagraphFeed {
  /** This model call's streamed text. */
  private buffer = "";
  /** How much of `buffer` was delivered. */
  private sent = 0;
  private parts = 0;
  /** The model call of the turn this text belongs to, and the paragraphs of it so far. */
  private round: number;
  private inRound = 0;
  private stopped = false;
  private chain: Promise<void> = Promise.resolve();

  /** `firstRound`: the rounds of this turn already stored (a continued turn counts on from them). */
  constructor(
    private readonly deliver: (part: ParagraphPart, text: string) => Promise<void>,
    firstRound = 0,
  ) {
    this.round = firstRound;
  }

  append(text: string): void {
    if (this.stopped) return;
    this.buffer += text;
    const end = this.finishedUpTo();
    if (end <= this.sent) return;
    const paragraph = this.buffer.slice(this.sent, end).trim();
    this.sent = end;
    if (!paragraph) return;
    this.parts++;
    const part: ParagraphPart = { round: this.round, index: this.inRound++ };
    this.chain = this.chain.then(() => this.deliver(part, paragraph)).catch(() => {});
  }

  /** The model call's text was discarded (a retry). */
  reset(): void {
    if (this.sent > 0) this.stopped = true;
    this.buffer = "";
    this.sent = 0;
  }

  /** A new model call (the next round): its text starts afresh. */
  nextRound(): void {
    this.round++;
    this.inRound = 0;
    if (this.stopped) return;
    this.buffer = "";
    this.sent = 0;
  }

  /** What of `final` is still to be delivered, once every streamed paragraph has gone out. */
  async rest(final: string): Promise<{ text: string; streamed: boolean }> {
    await this.chain;
    const streamed = this.parts > 0;
    const shown = this.buffer.slice(0, this.sent).trimEnd();
    if (!this.stopped && this.sent > 0 && final.startsWith(shown))
      return { text: final.slice(shown.length).trim(), streamed };
    return { text: final, streamed: streamed && final.trim() === "" };
  }

  /** The end of the last finished paragraph in `buffer`: after a blank line outside a fence. */
  private finishedUpTo(): number {
    let inFence = false;
    let end = this.sent;
    let offset = 0;
    const lines = this.buffer.split("\n");
    // The last element has no newline after it yet: it is not finished.
    for (let i = 0; i < lines.length - 1; i++) {
      const line = lines[i] ?? "";
      offset += line.length + 1;
      if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
      else if (!inFence && line.trim() === "" && offset > this.sent) end = offset;
    }
    return end;
  }
}
