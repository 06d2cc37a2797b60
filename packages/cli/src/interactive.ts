// The interactive chat (SPEC E1): streamed answers rendered as Markdown, a spinner while the model
// thinks and a progress line per tool call, Ctrl-C or Esc interrupting the turn (a second Ctrl-C
// exits), approval and clarify questions, slash commands with Tab completion, `@path` and `!cmd`,
// multi-line input (pastes stay whole; a line ending in "\" continues), and typed text that is
// never lost: a line typed during a turn is sent after the round's tool results or, when the
// answer ends first, as the next turn (L9).
import { createInterface } from "node:readline";
import { SessionBusyError } from "@iris/host";
import { textOf } from "@iris/llm";
import { expandMcpInput, loadShellParser } from "@iris/tools";
import { offerSetup } from "./first-run.js";
import type { GlobalFlags } from "./flags.js";
import { withImages } from "./image-input.js";
import { FileSnapshots } from "./rewind.js";
import { shortId } from "./session-ref.js";
import { ensureTitle } from "./session-title.js";
import { onEndSignals } from "./signals.js";
import { runSlash, type SlashContext, slashCommandNames } from "./slash.js";
import { startCli } from "./start.js";
import { duringTurn } from "./turn-commands.js";
import { ChatScreen } from "./ui/chat-screen.js";
import { styleFor } from "./ui/colors.js";
import { attachFiles, makeCompleter, runUserShell } from "./ui/composer.js";
import { endingLine } from "./ui/endings.js";
import { InputLineGuard } from "./ui/input-line.js";
import {
  BRACKETED_PASTE_OFF,
  BRACKETED_PASTE_ON,
  PasteAwareInput,
  restoreNewlines,
} from "./ui/line-input.js";
import { attachProgress } from "./ui/progress.js";
import { frontEndFromAsk, withdrawnNotice } from "./ui/prompts.js";
import { replayLines } from "./ui/session-replay.js";
import { statusLine } from "./ui/status-line.js";

interface Busy {
  controller: AbortController;
  interrupted: boolean;
}

/** `first`: the message of `iris "PROMPT"`, sent as soon as the chat is up. */
export async function runInteractive(flags: GlobalFlags, first?: string): Promise<number> {
  const stop = await offerSetup(flags);
  if (stop !== undefined) return stop;
  const started = await startCli(flags);
  if (!started.ok) return started.exitCode;
  const { session, process: iris } = started;
  const style = styleFor(process.stdout);
  const cwd = process.cwd();
  const tty = process.stdin.isTTY === true;
  const input = tty ? new PasteAwareInput(process.stdin) : process.stdin;
  if (tty) process.stdin.pipe(input);
  let busy: Busy | undefined;
  /** A turn (or the turns queued after it) owns the screen: typed text stays on its own line. */
  let inTurns = false;
  let working = false;
  let pendingAnswer: ((line: string) => void) | undefined;
  const guard = new InputLineGuard(process.stdout, () => inTurns && !pendingAnswer);
  const out = guard.out;
  const rl = createInterface({
    input,
    output: guard.forReadline,
    terminal: tty,
    historySize: 500,
    completer: makeCompleter(() => slashCommandNames(session), cwd),
  });
  guard.attach(rl);
  if (tty) out.write(BRACKETED_PASTE_ON);
  let lastSigintAt = 0;
  let exitCode = 0;
  let continued = "";
  /** Lines typed while no turn could take them, and `!cmd` outputs: sent with the next message. */
  const queued: string[] = [];
  const notes: string[] = [];

  const ask = (question: string, signal?: AbortSignal) =>
    new Promise<string>((resolve) => {
      if (signal?.aborted) return resolve("");
      // The tool's spinner stays off while the user reads and answers (and the wait is theirs).
      const release = progress.hold();
      out.write(question);
      const answer = (line: string) => {
        signal?.removeEventListener("abort", withdraw);
        release();
        resolve(line);
      };
      // A withdrawn question (timed out, or the turn ended) lets go of the input: the next line
      // is a new message.
      const withdraw = () => {
        if (pendingAnswer !== answer) return;
        pendingAnswer = undefined;
        out.write(withdrawnNotice(signal as AbortSignal));
        release();
        resolve("");
      };
      signal?.addEventListener("abort", withdraw, { once: true });
      pendingAnswer = answer;
    });
  const frontEnd = frontEndFromAsk(ask);
  const screen = new ChatScreen(out, style, {
    showReasoning: session.config.display.show_reasoning,
  });
  const detachScreen = screen.attach(session.events);
  const snapshots = new FileSnapshots(session, cwd);
  const detachSnapshots = snapshots.attach();
  const progress = attachProgress(session.events, out, style);

  let closed = false;
  rl.on("close", () => {
    closed = true;
  });
  const prompt = (continuation = false) => {
    if (closed) return; // a turn that settles after a quit or a signal prompts no more
    rl.setPrompt(continuation ? style.dim("… ") : style.cyan("› "));
    rl.prompt(true); // text typed during the turn stays, the cursor where it was
  };

  const interrupt = (): boolean => {
    if (!busy || busy.interrupted) return false;
    busy.interrupted = true;
    screen.interrupted();
    busy.controller.abort();
    out.write(`\n${style.dim("(interrupted — Ctrl-C again to quit)")}\n`);
    return true;
  };

  const runTurn = async (typed: string): Promise<void> => {
    const attached = attachFiles(typed, cwd);
    for (const n of attached.notes) out.write(`${style.dim(`· ${n}`)}\n`);
    const text = [...notes.splice(0), attached.text].join("\n\n");
    // `@photo.png` goes along as an image (SPEC K6); a broken one is named and nothing is sent.
    const withImage = await withImages(text, [], cwd);
    if ("error" in withImage) {
      out.write(`${withImage.error}\n`);
      return;
    }
    for (const n of withImage.notes) out.write(`${style.dim(`· ${n}`)}\n`);
    busy = { controller: new AbortController(), interrupted: false };
    try {
      // One live turn per session, across processes and front ends (SPEC D1): send takes it.
      const result = await session.send(withImage.input, { frontEnd, signal: busy.controller.signal });
      screen.endTurn();
      if (result.reason !== "natural") out.write(`${style.yellow(endingLine(result.reason, result.text))}\n`);
      out.write(`${style.dim(statusLine(session))}\n`);
      ensureTitle(session.store, session.id, typed);
      queued.unshift(...result.unsent.map((m) => textOf(m.content)));
    } catch (err) {
      if (!(err instanceof SessionBusyError)) throw err;
      out.write(`iris: ${err.message}\n`);
    } finally {
      busy = undefined;
    }
  };

  /** Runs `text` and then whatever was queued meanwhile, one turn after another. */
  const work = async (text: string): Promise<void> => {
    working = true;
    inTurns = true;
    try {
      let next: string | undefined = text;
      while (next !== undefined) {
        await runTurn(next);
        next = queued.length ? queued.splice(0).join("\n\n") : undefined;
        if (next !== undefined) out.write(`${style.dim("(sending what you typed during the answer)")}\n`);
      }
    } catch (err) {
      out.write(`iris: ${(err as Error).message}\n`);
    } finally {
      working = false;
      inTurns = false;
    }
    prompt();
  };

  const slashCtx: SlashContext = {
    session,
    out,
    style,
    ask,
    screen,
    exit: () => rl.close(),
    busy: () => busy !== undefined,
    muteStatus: () => progress.muteStatus(),
    snapshots,
  };

  let turnDone: Promise<void> | undefined;
  /** Expands an MCP prompt or `@server:uri` resources, then runs the turn, or reports why not. */
  const workAfterMcp = (text: string) => {
    working = true;
    void expandMcpInput(iris.tools.mcp, text).then((input) => {
      working = false;
      if ("error" in input) {
        out.write(`iris: ${input.error}\n`);
        prompt();
      } else turnDone = work(input.text);
    });
  };

  const submit = (text: string) => {
    if (!text) return prompt();
    // An MCP prompt (`/mcp__<server>__<prompt> name=value …`): its text goes out as this message.
    if (text.startsWith("/mcp__")) return workAfterMcp(text);
    if (text.startsWith("/")) {
      working = true;
      void runSlash(text, slashCtx)
        .catch((err) => {
          out.write(`iris: ${(err as Error).message}\n`);
          return true;
        })
        .then((next) => {
          working = false;
          // `/edit N TEXT` branches, then sends the edited message as the next turn.
          if (typeof next === "object") turnDone = work(next.send);
          else if (next) prompt();
        });
      return;
    }
    if (text.startsWith("!") && text.length > 1) {
      const ran = runUserShell(text.slice(1).trim(), cwd);
      out.write(ran.shown);
      notes.push(ran.note);
      out.write(`${style.dim("(the output goes along with your next message)")}\n`);
      return prompt();
    }
    // `@server:uri` attaches an MCP resource's text to the message.
    if (text.includes("@") && iris.tools.mcp.connections.size > 0) return workAfterMcp(text);
    turnDone = work(text);
  };

  const done = new Promise<number>((resolve) => {
    rl.on("close", () => resolve(exitCode));
  });

  rl.on("line", (raw) => {
    if (pendingAnswer) {
      const answer = pendingAnswer;
      pendingAnswer = undefined;
      answer(raw);
      return;
    }
    const line = restoreNewlines(raw);
    if (line.endsWith("\\")) {
      continued += `${line.slice(0, -1)}\n`;
      return prompt(true);
    }
    const text = (continued + line).trim();
    continued = "";
    if (busy || working) {
      if (!text) return;
      const command = duringTurn(text);
      if (command.kind === "stop") {
        if (!interrupt()) guard.notice(style.dim("(nothing to stop yet)"));
        return;
      }
      if (command.kind === "exit") {
        busy?.controller.abort();
        rl.close();
        return;
      }
      if (command.kind === "refuse") return guard.notice(style.dim(command.message));
      if (command.kind === "run") {
        void runSlash(text, slashCtx).catch((err) => guard.notice(`iris: ${(err as Error).message}`));
        return;
      }
      if (busy && session.inject(text))
        guard.notice(style.dim("(queued: sent after this round's tool results, or as the next turn)"));
      else {
        queued.push(text);
        guard.notice(style.dim("(queued: sent as the next turn)"));
      }
      return;
    }
    submit(text);
  });

  // Esc interrupts a running turn (Ctrl-C does too, below).
  input.on("keypress", (_s: string, key: { name?: string } | undefined) => {
    if (!busy || pendingAnswer) return;
    if (key?.name === "escape") interrupt();
    else if (key?.name !== "return") screen.userTyping();
  });

  rl.on("SIGINT", () => {
    if (pendingAnswer) {
      const answer = pendingAnswer;
      pendingAnswer = undefined;
      answer("");
    }
    if (busy) {
      if (busy.interrupted) {
        exitCode = 130;
        rl.close();
      } else interrupt();
      return;
    }
    continued = "";
    const now = Date.now();
    if (now - lastSigintAt < 2000) {
      exitCode = 130;
      rl.close();
      return;
    }
    lastSigintAt = now;
    out.write(`\n${style.dim("(Ctrl-C again or /exit to quit)")}\n`);
    prompt();
  });

  // SIGTERM/SIGHUP: like Ctrl-C twice, but the turn settles before the store closes.
  const ended = onEndSignals(
    () => {
      exitCode = ended.code ?? 143;
      busy?.controller.abort();
      rl.close();
    },
    // Best effort before a forced exit: the store is closed synchronously.
    () => iris.store.close(),
  );

  const r = session.runtime;
  out.write(
    `${style.bold("iris")} · ${r.provider}/${r.model} · session ${shortId(session.id)} · ${style.dim("/help for commands")}\n`,
  );
  if (flags.resume !== undefined || flags.continue) {
    const lines = replayLines(session.store, session.id, 3, Math.max(40, (out.columns ?? 100) - 1));
    if (lines.length) out.write(`${style.dim(lines.join("\n"))}\n\n`);
  }
  prompt();
  // The approval check's bash parser (~1.5 MB to compile) loads now, while the user types, not
  // on the first terminal call.
  if (session.toolNames.includes("terminal")) setImmediate(() => void loadShellParser().catch(() => {}));
  if (first) {
    out.write(`${first}\n`);
    submit(first);
  }
  const code = await done;
  busy?.controller.abort();
  await turnDone;
  ended.off();
  detachScreen();
  detachSnapshots();
  progress();
  guard.detach();
  if (tty) {
    out.write(BRACKETED_PASTE_OFF);
    process.stdin.unpipe(input);
    process.stdin.pause();
  }
  await iris.close();
  out.write("\n");
  return code;
}
