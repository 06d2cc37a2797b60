// One turn of a chat rendered from the shared turn view (host TurnView): the answer's text into
// the platform's draft or paragraph feed (a retried attempt's text withdrawn), the running call's
// line into the progress message (a subagent's calls too), and the draft's waiting line. The
// outputs are read at each change, so the turn's end may take them away.
import { type HostEvent, TurnView } from "@iris/host";
import { draftStatus } from "./draft-status.js";
import type { ParagraphFeed } from "./paragraph-feed.js";
import type { ProgressMessage } from "./progress.js";
import type { StreamDraft } from "./stream-draft.js";
import type { TypingIndicator } from "./typing.js";

export interface TurnOutputs {
  progress?: ProgressMessage;
  draft?: StreamDraft;
  feed?: ParagraphFeed;
  typing?: TypingIndicator;
}

export class ChatTurnRender {
  private readonly view = new TurnView();

  constructor(private readonly out: TurnOutputs) {}

  apply(e: HostEvent): void {
    const change = this.view.apply(e);
    if (!change) return;
    const { out } = this;
    switch (change.kind) {
      case "text":
        out.typing?.stop();
        out.draft?.append(change.delta);
        out.feed?.append(change.delta);
        return;
      case "reset":
        out.draft?.reset();
        out.feed?.reset();
        return;
      case "step":
        out.feed?.nextRound();
        return;
      case "tool":
        // The call as the turn view words it: its main argument, not raw JSON or a server path.
        if (change.phase === "before" || change.phase === "progress")
          out.progress?.update(`⚙ ${change.call.text}`);
        return;
      case "subagent":
        if (change.tool && change.tool.phase !== "after") out.progress?.update(`⚙ ${change.tool.call.text}`);
        return;
      default: {
        const line = out.draft ? draftStatus(change) : undefined;
        if (line) out.draft?.status(line);
      }
    }
  }
}
