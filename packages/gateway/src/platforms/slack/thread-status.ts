// Slack's "typing" for a bot (SPEC G1): the Events API has no typing indicator for bots (RTM's
// was never for them), but a thread can show a status line under it, "<app> is thinking…"
// (assistant.threads.setStatus, scope chat:write). Slack clears it when the app posts in the
// thread, so the runner's repeated typing call sets it again while the turn waits for the model;
// the delivered reply (often an edit of the draft, which does not clear it) clears it here. A
// top-level DM has no thread to show it in: there the streamed draft's "writing…" line is all.
// A workspace that refuses the method (an old plan, a missing scope) is told once in the log.
import type { Logger } from "@iris/llm";
import { webApi } from "@slack/bolt";
import type { ChatAddress } from "../../message.js";

export const THINKING = "is thinking…";

export class ThreadStatus {
  private readonly shown = new Set<string>();
  private refused = false;

  constructor(
    private readonly client: webApi.WebClient,
    private readonly logger: Logger,
    private readonly explain: (err: unknown) => string,
  ) {}

  async show(to: ChatAddress): Promise<void> {
    if (!to.threadId || this.refused) return;
    try {
      await this.client.assistant.threads.setStatus({
        channel_id: to.chatId,
        thread_ts: to.threadId,
        status: THINKING,
      });
      this.shown.add(`${to.chatId}/${to.threadId}`);
    } catch (err) {
      // Slack's refusal (ok: false) holds for the workspace; a network error only for this time.
      if ((err as { code?: string }).code !== webApi.ErrorCode.PlatformError) return;
      this.refused = true;
      this.logger.warn("slack thread status not shown (replies still show a draft while written)", {
        error: this.explain(err),
      });
    }
  }

  /** The turn's reply is there (or the turn ended without one): the status goes. */
  async clear(to: ChatAddress): Promise<void> {
    const lane = `${to.chatId}/${to.threadId ?? ""}`;
    if (!to.threadId || !this.shown.delete(lane)) return;
    await this.client.assistant.threads
      .setStatus({ channel_id: to.chatId, thread_ts: to.threadId, status: "" })
      .catch(() => {});
  }
}
