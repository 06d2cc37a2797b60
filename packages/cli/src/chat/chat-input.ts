// The chat's input side: readline over the terminal (pastes kept whole, the typed line kept below
// a running turn's output by the InputLineGuard), the prompt, and questions asked in the middle of
// a turn (approval, clarify, pickers), whose answer is the next line typed.
import { createInterface, type Interface } from "node:readline";
import type { Readable } from "node:stream";
import type { Style } from "../ui/colors.js";
import { makeCompleter } from "../ui/composer.js";
import { InputLineGuard, type TerminalView } from "../ui/input-line.js";
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON, PasteAwareInput } from "../ui/line-input.js";
import { withdrawnNotice } from "../ui/prompts.js";
import type { KeyInput } from "../ui/session-browser.js";

export interface ChatInputOptions {
  style: Style;
  cwd: string;
  /** Slash command names for Tab (they change as custom commands and MCP prompts load). */
  commandNames: () => string[];
  /** Whether a turn owns the screen now (typed text then stays on its own line). */
  inTurns: () => boolean;
}

export class ChatInput {
  readonly tty = process.stdin.isTTY === true;
  /** On a terminal, stdin through the paste-aware filter (pastes stay one message). */
  private readonly paste = this.tty ? new PasteAwareInput(process.stdin) : undefined;
  readonly input: Readable = this.paste ?? process.stdin;
  readonly guard: InputLineGuard;
  readonly rl: Interface;
  /** The chat's output (answer, progress, notices, questions). */
  readonly out: TerminalView;
  /** The answer to the question on screen, when one is (the next line typed goes to it). */
  pendingAnswer: ((line: string) => void) | undefined;
  private closed = false;

  constructor(private readonly opts: ChatInputOptions) {
    if (this.paste) process.stdin.pipe(this.paste);
    this.guard = new InputLineGuard(process.stdout, () => opts.inTurns() && !this.pendingAnswer);
    this.out = this.guard.out;
    this.rl = createInterface({
      input: this.input,
      output: this.guard.forReadline,
      terminal: this.tty,
      historySize: 500,
      completer: makeCompleter(opts.commandNames, opts.cwd),
    });
    this.guard.attach(this.rl);
    if (this.tty) this.out.write(BRACKETED_PASTE_ON);
    this.rl.on("close", () => {
      this.closed = true;
    });
  }

  /** Draws the prompt; a turn that settles after a quit or a signal prompts no more. */
  prompt(continuation = false): void {
    if (this.closed) return;
    const { style } = this.opts;
    this.rl.setPrompt(continuation ? style.dim("… ") : style.cyan("› "));
    this.rl.prompt(true); // text typed during the turn stays, the cursor where it was
  }

  /**
   * Asks `question`; the next line typed is the answer. `hold` keeps the tool's spinner off while
   * the user reads and answers (the wait is theirs, not the tool's); a withdrawn question (timed
   * out, or the turn ended) lets go of the input, so the next line is a new message.
   */
  ask(question: string, hold: () => () => void, signal?: AbortSignal): Promise<string> {
    return new Promise<string>((resolve) => {
      if (signal?.aborted) return resolve("");
      const release = hold();
      this.out.write(question);
      const answer = (line: string) => {
        signal?.removeEventListener("abort", withdraw);
        release();
        resolve(line);
      };
      const withdraw = () => {
        if (this.pendingAnswer !== answer) return;
        this.pendingAnswer = undefined;
        this.out.write(withdrawnNotice(signal as AbortSignal));
        release();
        resolve("");
      };
      signal?.addEventListener("abort", withdraw, { once: true });
      this.pendingAnswer = answer;
    });
  }

  /**
   * Runs `use` with the keys to itself (a picker drawn in place): readline and the chat's own key
   * listeners hear nothing until it ends, so the line being typed is left as it was.
   */
  async withKeys<T>(use: (keys: KeyInput) => Promise<T>): Promise<T> {
    const held = this.input.listeners("keypress") as ((...args: unknown[]) => void)[];
    for (const l of held) this.input.off("keypress", l);
    try {
      return await use(this.input as unknown as KeyInput); // readline made it emit keypress events
    } finally {
      for (const l of held) this.input.on("keypress", l);
    }
  }

  /** Gives `line` to the question on screen; false when none is asked. */
  answer(line: string): boolean {
    const answer = this.pendingAnswer;
    if (!answer) return false;
    this.pendingAnswer = undefined;
    answer(line);
    return true;
  }

  close(): void {
    this.rl.close();
  }

  /** After the chat: the terminal as it was (no bracketed paste, stdin let go). */
  detach(): void {
    this.guard.detach();
    if (this.paste) {
      this.out.write(BRACKETED_PASTE_OFF);
      process.stdin.unpipe(this.paste);
      process.stdin.pause();
    }
  }
}
