// The chat's turns: one at a time through Session.send (which takes the session's turn lease,
// SPEC D1), the lines typed meanwhile steered into the running turn (Session.inject) or queued as
// the next one (L9), and the interrupt that Esc, Ctrl-C and /stop share.
import { type Session, SessionBusyError, type TurnHooks } from "@iris/host";
import { textOf } from "@iris/llm";
import { withImages } from "../image-input.js";
import type { ChatScreen } from "../ui/chat-screen.js";
import type { Style } from "../ui/colors.js";
import { attachFiles } from "../ui/composer.js";
import { endingLine } from "../ui/endings.js";
import type { TerminalView } from "../ui/input-line.js";
import { statusLine } from "../ui/status-line.js";

interface Busy {
  controller: AbortController;
  interrupted: boolean;
}

export interface ChatTurnsOptions {
  session: Session;
  out: TerminalView;
  style: Style;
  cwd: string;
  screen: ChatScreen;
  /** The turn's tool hooks; questions come as the session's events (answerOnTerminal). */
  frontEnd: TurnHooks;
  /** After each turn (the user's turn_end hooks). */
  turnEnded?: (result: { reason: string; text: string }) => Promise<void>;
  /** Called when the turns (and what was queued after them) are done. */
  idle: () => void;
}

export class ChatTurns {
  /** A turn (or the turns queued after it) owns the screen: typed text stays on its own line. */
  inTurns = false;
  /** A command or a turn is under way: typed lines are steered or queued, not run. */
  working = false;
  /** The last turn started, settled when it and the turns queued after it are. */
  done: Promise<void> | undefined;
  private busy: Busy | undefined;
  /** Lines typed while no turn could take them: sent as the next turn. */
  private readonly queued: string[] = [];
  /** `!cmd` outputs: sent along with the next message. */
  private readonly notes: string[] = [];

  constructor(private readonly opts: ChatTurnsOptions) {}

  get running(): boolean {
    return this.busy !== undefined;
  }
  get interrupted(): boolean {
    return this.busy?.interrupted === true;
  }

  /** Starts `text` as a turn, then whatever is queued meanwhile. */
  start(text: string): void {
    this.done = this.work(text);
  }

  /** Ends the running turn; false when none runs or it is already ending. */
  interrupt(): boolean {
    const { busy } = this;
    if (!busy || busy.interrupted) return false;
    busy.interrupted = true;
    this.opts.screen.interrupted();
    busy.controller.abort();
    this.opts.out.write(`\n${this.opts.style.dim("(interrupted — Ctrl-C again to quit)")}\n`);
    return true;
  }

  /** Ends the running turn without a word (quitting). */
  abort(): void {
    this.busy?.controller.abort();
  }

  /** A line typed during a turn: into the running turn after its tool results, or the next turn. */
  steer(text: string): string {
    if (this.busy && this.opts.session.inject(text))
      return "(queued: sent after this round's tool results, or as the next turn)";
    this.queued.push(text);
    return "(queued: sent as the next turn)";
  }

  /** Text that goes along with the next message (a `!cmd`'s output). */
  addNote(note: string): void {
    this.notes.push(note);
  }

  private async work(text: string): Promise<void> {
    const { out, style } = this.opts;
    this.working = true;
    this.inTurns = true;
    try {
      let next: string | undefined = text;
      while (next !== undefined) {
        await this.runTurn(next);
        next = this.queued.length ? this.queued.splice(0).join("\n\n") : undefined;
        if (next !== undefined) out.write(`${style.dim("(sending what you typed during the answer)")}\n`);
      }
    } catch (err) {
      out.write(`iris: ${(err as Error).message}\n`);
    } finally {
      this.working = false;
      this.inTurns = false;
    }
    this.opts.idle();
  }

  private async runTurn(typed: string): Promise<void> {
    const { session, out, style, cwd, screen, frontEnd } = this.opts;
    const attached = attachFiles(typed, cwd);
    for (const n of attached.notes) out.write(`${style.dim(`· ${n}`)}\n`);
    const text = [...this.notes.splice(0), attached.text].join("\n\n");
    // `@photo.png` goes along as an image (SPEC K6); a broken one is named and nothing is sent.
    const withImage = await withImages(text, [], cwd);
    if ("error" in withImage) {
      out.write(`${withImage.error}\n`);
      return;
    }
    for (const n of withImage.notes) out.write(`${style.dim(`· ${n}`)}\n`);
    this.busy = { controller: new AbortController(), interrupted: false };
    try {
      // One live turn per session, across processes and front ends (SPEC D1): send takes it.
      const result = await session.send(withImage.input, { frontEnd, signal: this.busy.controller.signal });
      screen.endTurn();
      this.queued.unshift(...result.unsent.map((m) => textOf(m.content)));
      if (result.reason !== "natural") out.write(`${style.yellow(endingLine(result.reason, result.text))}\n`);
      // After a store failure the status line and title wait (the store may still be down).
      if (result.reason !== "store_error") {
        out.write(`${style.dim(await statusLine(session))}\n`);
        await session.ensureTitle(typed);
      }
      await this.opts.turnEnded?.(result);
    } catch (err) {
      if (!(err instanceof SessionBusyError)) throw err;
      out.write(`iris: ${err.message}\n`);
    } finally {
      this.busy = undefined;
    }
  }
}
