// One line per tool call (SPEC E1): "⠹ terminal  npm test 2.1s" while it runs, then "✓"/"✗" with
// its duration and, for a failed call, why it failed. On a terminal the running line is rewritten
// in place with the elapsed time; elsewhere each call gets one finished line. Lines are cut to
// the terminal's width by display columns (CJK-safe). While a question is asked (an approval)
// the spinner stops, so it never draws over the question or the answer being typed, and the
// time spent waiting for the user is not counted as the tool's. Under a finished call: the diff
// of a file edit (edit-diff.ts) or a short preview of the output (tool-preview.ts). A subagent's
// finished calls are folded under its delegate_task call, led by "↳", as the turn view reports
// them (host TurnView: the feed is all this reads).
import type { SubagentView, ToolCallView } from "@iris/host";
import { makeStyle, type Style } from "./colors.js";
import type { EditDiffs } from "./edit-diff.js";
import { Spinner } from "./spinner.js";
import { toolOutcome } from "./tool-outcome.js";
import { previewLines } from "./tool-preview.js";
import type { TurnFeed } from "./turn-feed.js";
import { truncateToWidth } from "./width.js";

export interface ProgressDetails {
  /** Diffs of write_file and patch calls. */
  edits?: EditDiffs;
  /** The first lines of other calls' output. */
  previews?: boolean;
}

/** Tools whose output is no news to the user (the file they asked about; the edit's own diff). */
const NO_PREVIEW = new Set(["read_file", "write_file", "patch", "todo", "clarify", "memory"]);

interface Out {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Detaches; `hold()` stops the spinner while a question is asked and returns the release. */
export type ProgressView = (() => void) & {
  hold(): () => void;
  /** Status lines are not shown until the returned function is called (a command says it itself). */
  muteStatus(): () => void;
};

export function attachProgress(
  feed: TurnFeed,
  out: Out,
  style: Style = makeStyle(false),
  details: ProgressDetails = {},
): ProgressView {
  const started = new Map<string, { name: string; preview: string; at: number }>();
  let holds = 0;
  let muted = 0;
  let openLine: string | undefined;
  /** The parent call whose subagent lines were last shown under it. */
  let foldedUnder: string | undefined;
  const width = () => Math.max(20, (out.columns ?? 100) - 1);
  const spinner = new Spinner(out, (frame, label, secs) =>
    truncateToWidth(`${style.cyan(frame)} ${label}`, width() - 8).concat(style.dim(` ${secs}s`)),
  );
  const closeOpen = () => {
    if (openLine !== undefined) {
      spinner.stop();
      const s = started.get(openLine);
      if (s) out.write(`${truncateToWidth(`⚙ ${s.name}  ${s.preview}`, width())}\n`);
      foldedUnder = undefined;
    }
    openLine = undefined;
  };
  /** The diff or output preview under a finished call, each line led by a newline. */
  const below = (callId: string, name: string, failed: boolean, result: string | undefined): string => {
    const diff = details.edits?.render(callId, failed, width()) ?? [];
    if (diff.length) return diff.map((l) => `\n${l}`).join("");
    if (!details.previews || failed || NO_PREVIEW.has(name)) return "";
    return previewLines(result)
      .map((l) => `\n    ${style.dim(truncateToWidth(`│ ${l}`, width() - 4))}`)
      .join("");
  };
  let waitingShown = false;
  // Only before the first streamed byte: mid-stream the line would tear the answer's text.
  let thinking = false;
  let nextWaitPrint = 5;
  const clearWaiting = () => {
    if (waitingShown && out.isTTY) out.write("\r\u001b[K");
    waitingShown = false;
    nextWaitPrint = 5;
  };
  /**
   * A subagent's finished call, under the line of the parent's call that runs it ("⚙ delegate_task
   * …", written again when other lines came between). On a terminal the parent's clock goes on
   * below its children's lines.
   */
  const subagentCall = (sub: SubagentView, call: ToolCallView) => {
    clearWaiting();
    const parent = sub.parentCallId;
    const s = parent !== undefined ? started.get(parent) : undefined;
    if (openLine !== undefined && openLine === parent && foldedUnder === parent) {
      spinner.stop(); // the parent's resumed clock: its header is written already
      openLine = undefined;
    }
    // An open line of the parent's own is closed with its header: written once.
    const headed = openLine !== undefined && openLine === parent;
    closeOpen();
    if (s && !headed && foldedUnder !== parent)
      out.write(`${truncateToWidth(`⚙ ${s.name}  ${s.preview}`, width())}\n`);
    foldedUnder = parent;
    const mark = call.status === "failed" ? style.red("✗") : style.green("✓");
    out.write(`  ↳ ${mark} ${truncateToWidth(call.text, width() - 6)}\n`);
    if (s && out.isTTY) {
      openLine = parent;
      if (holds === 0) spinner.start(`${s.name}  ${s.preview}`, s.at);
    }
  };
  const off = feed.on((c) => {
    switch (c.kind) {
      // A silent model call: rewritten in place on a terminal; elsewhere at 5, 15, 30, 60 … s.
      case "waiting": {
        if (!thinking || c.stepId !== undefined) return; // a call starting is not a wait yet
        const line = `… waiting for the model ${c.provider}/${c.model} (${c.seconds} s)`;
        if (out.isTTY) {
          if (openLine !== undefined) return; // a tool's line is open; do not tear it
          out.write(`\r\u001b[K${truncateToWidth(line, width())}`);
          waitingShown = true;
        } else if (c.seconds >= nextWaitPrint) {
          out.write(`${line}\n`);
          nextWaitPrint = nextWaitPrint === 5 ? 15 : nextWaitPrint * 2;
        }
        return;
      }
      case "thinking":
        thinking = c.active;
        if (!c.active) clearWaiting();
        return;
      case "subagent":
        if (c.tool?.phase === "after") subagentCall(c.subagent, c.tool.call);
        return;
      case "tool":
        if (c.phase === "before") toolStarted(c.call, c.preview ?? "");
        else if (c.phase === "after") toolEnded(c.call, c.message, c.result);
        return;
      case "notice": {
        if (muted > 0) return;
        clearWaiting();
        closeOpen();
        foldedUnder = undefined;
        const mark = c.level === "info" ? "·" : c.level === "warn" ? style.yellow("!") : style.red("✗");
        out.write(`${mark} ${c.message}\n`);
        return;
      }
      default:
        return;
    }
  });
  const toolStarted = (call: ToolCallView, preview: string) => {
    const at = Date.now();
    started.set(call.callId, { name: call.name, preview, at });
    if (out.isTTY) {
      closeOpen();
      openLine = call.callId;
      if (holds === 0) spinner.start(`${call.name}  ${preview}`, at);
    }
  };
  const toolEnded = (call: ToolCallView, message: string | undefined, result: string | undefined) => {
    const s = started.get(call.callId);
    started.delete(call.callId);
    const secs = s ? ((Date.now() - s.at) / 1000).toFixed(1) : "?";
    const isError = call.status === "failed";
    const outcome = toolOutcome(call.name, isError, message, result);
    const mark = outcome.failed ? style.red("✗") : style.green("✓");
    const line = `${mark} ${truncateToWidth(`${call.name}  ${s?.preview ?? ""}`, width() - 10)} (${secs}s)`;
    const paint = outcome.failed ? style.red : style.yellow;
    const why =
      (outcome.note ? `\n    ${paint(truncateToWidth(outcome.note, width() - 4))}` : "") +
      below(call.callId, call.name, outcome.failed || isError, result);
    if (out.isTTY && openLine === call.callId) {
      spinner.stop();
      out.write(`${line}${why}\n`);
    } else {
      closeOpen();
      out.write(`${line}${why}\n`);
    }
    if (openLine === call.callId) openLine = undefined;
    foldedUnder = undefined;
  };
  const detach = () => {
    spinner.stop();
    off();
  };
  const hold = () => {
    holds++;
    spinner.stop();
    const from = Date.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holds--;
      // The wait was the user's: every call running meanwhile starts its clock again later.
      const waited = Date.now() - from;
      for (const s of started.values()) s.at += waited;
      const open = openLine !== undefined ? started.get(openLine) : undefined;
      if (holds === 0 && open && out.isTTY) spinner.start(`${open.name}  ${open.preview}`, open.at);
    };
  };
  const muteStatus = () => {
    muted++;
    let done = false;
    return () => {
      if (!done) muted--;
      done = true;
    };
  };
  return Object.assign(detach, { hold, muteStatus });
}
