// The interactive chat (SPEC E1): streamed answers rendered as Markdown, a spinner while the model
// thinks and a progress line per tool call, Ctrl-C or Esc interrupting the turn (a second Ctrl-C
// exits), approval and clarify questions, slash commands with Tab completion, `@path` and `!cmd`,
// multi-line input (pastes stay whole; a line ending in "\" continues), and typed text that is
// never lost: a line typed during a turn is sent after the round's tool results or, when the
// answer ends first, as the next turn (L9). The chat is a client of its Session like every other
// front end: its parts are the input (chat/chat-input.ts), the turns (chat/chat-turns.ts), the
// screen and the tool progress, wired together here.
import type { IrisProcess, Session } from "@iris/host";
import { expandMcpInput } from "@iris/tools";
import { ChatInput } from "./chat/chat-input.js";
import { ChatTurns } from "./chat/chat-turns.js";
import { offerSetup } from "./first-run.js";
import type { GlobalFlags } from "./flags.js";
import { UserHooks } from "./hooks/user-hooks.js";
import { shortId } from "./session-ref.js";
import { onEndSignals } from "./signals.js";
import { runSlash, type SlashContext, slashCommandNames } from "./slash.js";
import { startCli } from "./start.js";
import { duringTurn } from "./turn-commands.js";
import { ChatScreen } from "./ui/chat-screen.js";
import { type Style, styleFor } from "./ui/colors.js";
import { runUserShell } from "./ui/composer.js";
import { EditDiffs } from "./ui/edit-diff.js";
import { restoreNewlines } from "./ui/line-input.js";
import { attachProgress } from "./ui/progress.js";
import { answerOnTerminal } from "./ui/prompts.js";
import { browseSessions } from "./ui/session-browser.js";
import { replayLines } from "./ui/session-replay.js";
import { StatusBar } from "./ui/status-bar.js";
import { statusLine } from "./ui/status-line.js";
import { turnFeed } from "./ui/turn-feed.js";

/** `first`: the message of `iris "PROMPT"`, sent as soon as the chat is up. */
export async function runInteractive(flags: GlobalFlags, first?: string): Promise<number> {
  const stop = await offerSetup(flags);
  if (stop !== undefined) return stop;
  const started = await startCli(flags);
  if (!started.ok) return started.exitCode;
  return new InteractiveChat(started.session, started.process, flags).run(first);
}

export class InteractiveChat {
  private readonly style: Style = styleFor(process.stdout);
  private readonly cwd = process.cwd();
  private readonly input: ChatInput;
  private readonly turns: ChatTurns;
  private readonly screen: ChatScreen;
  private readonly progress: ReturnType<typeof attachProgress>;
  private readonly slash: SlashContext;
  /** The status line kept on the terminal's last row. */
  private readonly bar: StatusBar;
  private readonly detach: (() => void)[] = [];
  private exitCode = 0;
  private lastSigintAt = 0;
  /** The lines of a message continued with a trailing "\". */
  private continued = "";

  constructor(
    private readonly session: Session,
    private readonly iris: IrisProcess,
    private readonly flags: GlobalFlags,
  ) {
    const { style, cwd } = this;
    this.input = new ChatInput({
      style,
      cwd,
      commandNames: () => slashCommandNames(session),
      // Asked from readline's first writes too, before the turns are made.
      inTurns: () => this.turns?.inTurns === true,
    });
    const out = this.input.out;
    this.screen = new ChatScreen(out, style, { showReasoning: session.config.display.show_reasoning });
    // The screen hears each event first: it ends the streamed line before progress writes below it.
    // Every renderer reads host's turn view (SPEC E5), as the other front ends do.
    const feed = turnFeed((fn) => session.subscribe(fn));
    this.detach.push(this.screen.attach(feed));
    const edits = new EditDiffs(cwd, style);
    this.progress = attachProgress(feed, out, style, { edits, previews: true });
    const ask = (question: string, signal?: AbortSignal) =>
      this.input.ask(question, () => this.progress.hold(), signal);
    // The session's approvals and clarify questions, asked in the line editor, answered by id.
    this.detach.push(answerOnTerminal(session, ask));
    const hooks = new UserHooks(session.config.hooks, {
      sessionId: () => session.id,
      cwd,
      warn: (m) => out.write(`${style.yellow("!")} ${m}\n`),
    });
    this.turns = new ChatTurns({
      session,
      out,
      style,
      cwd,
      screen: this.screen,
      frontEnd: hooks.around(),
      turnEnded: (result) => hooks.turnEnded(result),
      idle: () => this.idle(),
    });
    this.bar = new StatusBar(process.stdout, () => statusLine(session), style.dim);
    // Redrawn as the turn spends, not only when it ends: after each model call (its usage is
    // recorded right after the event) and when a tool starts (the call's usage is in by then).
    const redraw = () => setImmediate(() => void this.bar.draw());
    this.detach.push(
      feed.on((c) => {
        if (c.kind === "usage" || (c.kind === "tool" && c.phase === "before")) redraw();
      }),
    );
    this.slash = {
      session,
      out,
      style,
      ask,
      screen: this.screen,
      exit: () => this.input.close(),
      busy: () => this.turns.running,
      muteStatus: () => this.progress.muteStatus(),
      ...(this.input.tty
        ? {
            pickSession: (rows) =>
              this.input.withKeys((keys) => browseSessions(rows, cwd, keys, this.input.out)),
          }
        : {}),
    };
    this.detach.push(
      edits.attach(feed),
      () => this.progress(),
      () => feed.close(),
    );
  }

  async run(first?: string): Promise<number> {
    const { rl } = this.input;
    const done = new Promise<number>((resolve) => {
      rl.on("close", () => resolve(this.exitCode));
    });
    rl.on("line", (raw) => this.onLine(raw));
    this.input.input.on("keypress", (_s: string, key: { name?: string } | undefined) => this.onKey(key));
    rl.on("SIGINT", () => this.onSigint());
    // SIGTERM/SIGHUP: like Ctrl-C twice, but the turn settles before the store closes.
    const ended = onEndSignals(
      () => {
        this.exitCode = ended.code ?? 143;
        this.turns.abort();
        this.input.close();
      },
      // Best effort before a forced exit: the store is closed synchronously.
      () => this.iris.closeStoreNow(),
    );
    await this.banner();
    await this.bar.start();
    this.input.prompt();
    if (first) {
      this.input.out.write(`${first}\n`);
      this.submit(first);
    }
    const code = await done;
    this.turns.abort();
    await this.turns.done;
    ended.off();
    for (const off of this.detach) off();
    this.bar.stop();
    this.input.detach();
    await this.iris.close();
    this.input.out.write("\n");
    return code;
  }

  private async banner(): Promise<void> {
    const { session, style } = this;
    const out = this.input.out;
    const r = session.runtime;
    out.write(
      `${style.bold("iris")} · ${r.provider}/${r.model} · session ${shortId(session.id)} · ${style.dim("/help for commands")}\n`,
    );
    if (this.flags.resume !== undefined || this.flags.continue) {
      const lines = replayLines(await session.history(), 3, Math.max(40, (out.columns ?? 100) - 1));
      if (lines.length) out.write(`${style.dim(lines.join("\n"))}\n\n`);
    }
  }

  /** A line typed: the answer to a question, part of a continued message, steering, or a message. */
  private onLine(raw: string): void {
    if (this.input.answer(raw)) return;
    const line = restoreNewlines(raw);
    if (line.endsWith("\\")) {
      this.continued += `${line.slice(0, -1)}\n`;
      this.input.prompt(true);
      return;
    }
    const text = (this.continued + line).trim();
    this.continued = "";
    if (this.turns.running || this.turns.working) this.duringTurn(text);
    else this.submit(text);
  }

  /** Slash commands typed during a turn run at once (or say why not); other text is steered. */
  private duringTurn(text: string): void {
    if (!text) return;
    const { guard } = this.input;
    const { style } = this;
    const command = duringTurn(text);
    if (command.kind === "stop") {
      if (!this.turns.interrupt()) guard.notice(style.dim("(nothing to stop yet)"));
    } else if (command.kind === "exit") {
      this.turns.abort();
      this.input.close();
    } else if (command.kind === "refuse") guard.notice(style.dim(command.message));
    else if (command.kind === "run")
      void runSlash(text, this.slash).catch((err) => guard.notice(`iris: ${(err as Error).message}`));
    else guard.notice(style.dim(this.turns.steer(text)));
  }

  private submit(text: string): void {
    const { out } = this.input;
    if (!text) this.input.prompt();
    // An MCP prompt (`/mcp__<server>__<prompt> name=value …`): its text goes out as this message.
    else if (text.startsWith("/mcp__")) this.workAfterMcp(text);
    else if (text.startsWith("/")) this.runCommand(text);
    else if (text.startsWith("!") && text.length > 1) {
      const ran = runUserShell(text.slice(1).trim(), this.cwd);
      out.write(ran.shown);
      this.turns.addNote(ran.note);
      out.write(`${this.style.dim("(the output goes along with your next message)")}\n`);
      this.input.prompt();
    }
    // `@server:uri` attaches an MCP resource's text to the message.
    else if (text.includes("@") && this.iris.tools.mcp.connections.size > 0) this.workAfterMcp(text);
    else this.turns.start(text);
  }

  private runCommand(text: string): void {
    this.turns.working = true;
    void runSlash(text, this.slash)
      .catch((err) => {
        this.input.out.write(`iris: ${(err as Error).message}\n`);
        return true;
      })
      .then((next) => {
        this.turns.working = false;
        // `/edit N TEXT` branches, then sends the edited message as the next turn.
        if (typeof next === "object") this.turns.start(next.send);
        else if (next) this.idle();
      });
  }

  /** Expands an MCP prompt or `@server:uri` resources, then runs the turn, or reports why not. */
  private workAfterMcp(text: string): void {
    this.turns.working = true;
    void expandMcpInput(this.iris.tools.mcp, text).then((input) => {
      this.turns.working = false;
      if ("error" in input) {
        this.input.out.write(`iris: ${input.error}\n`);
        this.input.prompt();
      } else this.turns.start(input.text);
    });
  }

  /** Ready for the next message: the status line says where the session stands, then the prompt. */
  private idle(): void {
    // The line first, then the prompt: what the last turn spent is on screen when it is asked.
    void this.bar.draw().finally(() => this.input.prompt());
  }

  /** Esc interrupts a running turn (Ctrl-C does too). */
  private onKey(key: { name?: string } | undefined): void {
    if (!this.turns.running || this.input.pendingAnswer) return;
    if (key?.name === "escape") this.turns.interrupt();
    else if (key?.name !== "return") this.screen.userTyping();
  }

  private onSigint(): void {
    this.input.answer("");
    if (this.turns.running) {
      if (this.turns.interrupted) {
        this.exitCode = 130;
        this.input.close();
      } else this.turns.interrupt();
      return;
    }
    this.continued = "";
    const now = Date.now();
    if (now - this.lastSigintAt < 2000) {
      this.exitCode = 130;
      this.input.close();
      return;
    }
    this.lastSigintAt = now;
    this.input.out.write(`\n${this.style.dim("(Ctrl-C again or /exit to quit)")}\n`);
    this.input.prompt();
  }
}
