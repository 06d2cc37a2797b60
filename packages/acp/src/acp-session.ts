// One editor thread: an ordinary Iris session (source `acp`) plus what ACP adds — prompts queued
// and answered in order, cancel, the editor's permission requests and files, and the turn's events
// sent as `session/update`s. Updates are fire-and-forget: one that fails to send is logged and
// never holds up the prompt's response.
import {
  RequestError,
  type SessionConfigOption,
  type SessionUpdate,
} from "@agentclientprotocol/sdk/unstable";
import { answerAsks, type Session, SessionBusyError } from "@iris/host";
import type { FileAccess, McpInput } from "@iris/tools";
import { type Clarify, NO_WAY_TO_ASK } from "./clarify.js";
import { parseCommand, runCommand } from "./commands.js";
import { type AskEditor, EditorApprovals } from "./permissions.js";
import { type PromptBlock, promptToMessage } from "./prompt-content.js";
import { needsExplanation, type StopReason, stopReasonOf } from "./stop-reason.js";
import { TurnUpdates } from "./turn-updates.js";

export interface SessionChannel {
  /** Sends one update; the returned promise is only for logging its failure. */
  update(update: SessionUpdate): Promise<void>;
  askPermission: AskEditor;
  /** Asks the user a question (the clarify tool); absent when the editor cannot. */
  clarify?: Clarify;
  /** The editor's files, when it offers both fs methods. */
  files?: FileAccess;
  log(message: string): void;
}

export interface AcpSessionOptions {
  /** The id the editor uses (default the Iris session's id now). */
  id?: string;
  session: Session;
  channel: SessionChannel;
  /** Whether the session's route takes images now. */
  vision: () => boolean;
  contextWindow: () => number;
  /** The session's config options now (the model picker), sent again after `/model` or `/new`. */
  configOptions?: () => SessionConfigOption[];
  /** MCP in the typed text: `/mcp__server__prompt …` and `@server:uri` (as in the terminal). */
  expandInput?: (text: string) => Promise<McpInput>;
}

export class AcpSession {
  /** The id the editor knows this thread by (the Iris id it started with). */
  readonly id: string;
  private queue: Promise<unknown> = Promise.resolve();
  /** Bumped by cancel: prompts queued before it are answered `cancelled` without running. */
  private epoch = 0;
  private turn: AbortController | undefined;
  private readonly approvals: EditorApprovals;

  constructor(private readonly opts: AcpSessionOptions) {
    this.id = opts.id ?? opts.session.id;
    this.approvals = new EditorApprovals(opts.channel.askPermission);
  }

  get session(): Session {
    return this.opts.session;
  }

  /** Queued behind the running turn; answered in the order the prompts arrived. */
  prompt(blocks: PromptBlock[]): Promise<StopReason> {
    const epoch = this.epoch;
    const run = this.queue.then(() => (epoch !== this.epoch ? "cancelled" : this.runTurn(blocks)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the running turn now and answers every prompt queued so far with `cancelled`. */
  cancel(): void {
    this.epoch++;
    this.turn?.abort();
  }

  /** Sends an update without waiting; a failure is logged, never thrown. */
  send(update: SessionUpdate): void {
    try {
      this.opts.channel
        .update(update)
        .catch((err: unknown) => this.opts.channel.log(`session/update failed: ${String(err)}`));
    } catch (err) {
      this.opts.channel.log(`session/update failed: ${String(err)}`);
    }
  }

  private say(text: string): void {
    this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  }

  private async runTurn(blocks: PromptBlock[]): Promise<StopReason> {
    const controller = new AbortController();
    this.turn = controller;
    try {
      const only =
        blocks.length === 1 && blocks[0]?.type === "text" ? parseCommand(blocks[0].text) : undefined;
      if (only) {
        this.say(
          await runCommand(this.session, only).catch(
            (err: unknown) => `/${only.name} failed: ${String(err)}`,
          ),
        );
        if ((only.name === "model" || only.name === "new") && this.opts.configOptions)
          this.send({ sessionUpdate: "config_option_update", configOptions: this.opts.configOptions() });
        return "end_turn";
      }
      const expanded = await this.expandFirstText(blocks);
      if ("error" in expanded) {
        this.say(expanded.error);
        return "end_turn";
      }
      blocks = expanded.blocks;
      // Linked files are read from the disk (an embedded resource carries the editor's buffer).
      const message = await promptToMessage(blocks, { vision: this.opts.vision() });
      if (controller.signal.aborted) return "cancelled";
      return await this.runAgent(message, controller, promptText(blocks));
    } finally {
      if (this.turn === controller) this.turn = undefined;
    }
  }

  /** The first text block with its MCP prompt or `@server:uri` resources expanded. */
  private async expandFirstText(
    blocks: PromptBlock[],
  ): Promise<{ blocks: PromptBlock[] } | { error: string }> {
    const first = blocks[0];
    const expand = this.opts.expandInput;
    if (!expand || first?.type !== "text") return { blocks };
    const input = await expand(first.text);
    if ("error" in input) return input;
    return { blocks: [{ ...first, text: input.text }, ...blocks.slice(1)] };
  }

  private async runAgent(
    message: Parameters<Session["send"]>[0],
    controller: AbortController,
    text: string,
  ): Promise<StopReason> {
    const session = this.session;
    const updates = new TurnUpdates(
      session.cwd,
      this.opts.contextWindow,
      async () => (await session.row()).costUsd,
      () => controller.signal.aborted,
    );
    // Updates go out in the order of their events, also those that wait for the store.
    let updating: Promise<void> = Promise.resolve();
    const unsubscribe = session.subscribe((event) => {
      const mapped = updates.map(event);
      updating = updating
        .then(async () => {
          for (const u of await mapped) this.send(u);
        })
        .catch((err: unknown) => this.opts.channel.log(`session/update failed: ${String(err)}`));
    });
    // The session's questions as the editor's dialogs (permission requests keyed to their tool
    // calls, forms), answered by request id; a withdrawn one is cancelled ($/cancel_request).
    const { clarify, log } = this.opts.channel;
    const stopAsking = answerAsks(session, {
      approval: (request, signal) => this.approvals.approve(request, signal),
      clarify: (q, signal) =>
        clarify ? clarify(q.question, q.choices, signal, q.callId) : Promise.resolve(NO_WAY_TO_ASK),
      failed: (err) => log(`asking the editor failed: ${String(err)}`),
    });
    const files = this.opts.channel.files;
    // Where the conversation stood before this prompt: a refusal rewinds to it.
    const before = { sessionId: session.id, leaf: (await session.row()).activeLeafId };
    try {
      const result = await session.send(message, {
        ...(files ? { frontEnd: { files } } : {}),
        signal: controller.signal,
      });
      await updating;
      for (const u of updates.finish(
        result.reason === "user_cancelled" ? "the turn was cancelled" : "the turn ended",
      ))
        this.send(u);
      if (needsExplanation(result) && result.text) this.say(`\n\n${result.text}`);
      const stop = stopReasonOf(result);
      if (stop === "refusal" && (await this.leaveOut(before))) return stop;
      // After a store failure the title and activity wait: the store may still be down.
      if (result.reason !== "store_error") await this.sendInfo(text);
      return stop === "refusal" ? "end_turn" : stop;
    } catch (err) {
      await updating;
      for (const u of updates.finish("the turn failed")) this.send(u);
      if (err instanceof SessionBusyError) throw busyError(err);
      if (controller.signal.aborted) return "cancelled";
      this.say(`\n\nThe turn failed: ${err instanceof Error ? err.message : String(err)}`);
      return "end_turn";
    } finally {
      unsubscribe();
      stopAsking();
    }
  }

  /**
   * ACP's `refusal` tells the editor that the prompt and all after it are left out of the next
   * prompt: the session rewinds to where it stood before (the refused exchange stays in the store,
   * off the active path). Not possible once compression moved the conversation to a new session
   * during the turn; the turn then ends as end_turn, its refusal message already shown.
   */
  private async leaveOut(before: { sessionId: string; leaf: string | null }): Promise<boolean> {
    const session = this.session;
    if (session.id !== before.sessionId) return false;
    await session.rewindTo(before.leaf);
    return true;
  }

  /** The session's title (from its first prompt, unless the editor set one) and last activity. */
  private async sendInfo(firstPrompt: string): Promise<void> {
    const title = await this.session.ensureTitle(firstPrompt);
    this.send({
      sessionUpdate: "session_info_update",
      ...(title ? { title } : {}),
      updatedAt: new Date().toISOString(),
    });
  }

  /** Waits for the queue to drain (close, tests). */
  async idle(): Promise<void> {
    await this.queue;
  }
}

/** The prompt's own words (what a title is made from). */
function promptText(blocks: readonly PromptBlock[]): string {
  return blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

/** JSON-RPC's range for server errors: this one says "another turn holds the session, retry". */
export const SESSION_BUSY_CODE = -32001;

/** Another front end (or process) runs a turn in this session: the prompt is refused, not queued. */
function busyError(err: SessionBusyError): RequestError {
  return new RequestError(SESSION_BUSY_CODE, err.message, {
    reason: "session_busy",
    retryAfterSeconds: err.retryAfterSeconds,
  });
}
