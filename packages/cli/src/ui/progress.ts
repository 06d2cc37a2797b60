// One line per tool call (SPEC E1): "⠹ terminal  npm test 2.1s" while it runs, then "✓"/"✗" with
// its duration and, for a failed call, why it failed. On a terminal the running line is rewritten
// in place with the elapsed time; elsewhere each call gets one finished line. Lines are cut to
// the terminal's width by display columns (CJK-safe). While a question is asked (an approval)
// the spinner stops, so it never draws over the question or the answer being typed, and the
// time spent waiting for the user is not counted as the tool's. Under a finished call: the diff
// of a file edit (edit-diff.ts) or a short preview of the output (tool-preview.ts).
import type { AgentEvents } from "@iris/host";
import { makeStyle, type Style } from "./colors.js";
import type { EditDiffs } from "./edit-diff.js";
import { Spinner } from "./spinner.js";
import { toolOutcome } from "./tool-outcome.js";
import { previewLines } from "./tool-preview.js";
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
  events: AgentEvents,
  out: Out,
  style: Style = makeStyle(false),
  details: ProgressDetails = {},
): ProgressView {
  const started = new Map<string, { name: string; preview: string; at: number }>();
  let holds = 0;
  let muted = 0;
  let openLine: string | undefined;
  const width = () => Math.max(20, (out.columns ?? 100) - 1);
  const spinner = new Spinner(out, (frame, label, secs) =>
    truncateToWidth(`${style.cyan(frame)} ${label}`, width() - 8).concat(style.dim(` ${secs}s`)),
  );
  const closeOpen = () => {
    if (openLine !== undefined) {
      spinner.stop();
      const s = started.get(openLine);
      if (s) out.write(`${truncateToWidth(`⚙ ${s.name}  ${s.preview}`, width())}\n`);
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
  const offs = [
    // A silent model call: rewritten in place on a terminal; elsewhere at 5, 15, 30, 60 … s.
    events.on("waiting", (w) => {
      if (!thinking) return;
      const line = `… waiting for the model ${w.provider}/${w.model} (${w.seconds} s)`;
      if (out.isTTY) {
        if (openLine !== undefined) return; // a tool's line is open; do not tear it
        out.write(`\r\u001b[K${truncateToWidth(line, width())}`);
        waitingShown = true;
      } else if (w.seconds >= nextWaitPrint) {
        out.write(`${line}\n`);
        nextWaitPrint = nextWaitPrint === 5 ? 15 : nextWaitPrint * 2;
      }
    }),
    events.on("thinking", (t) => {
      thinking = t.active;
      if (!t.active) clearWaiting();
    }),
    events.on("tool_progress", (p) => {
      if (p.phase === "before") {
        const at = Date.now();
        started.set(p.callId, { name: p.name, preview: p.preview ?? "", at });
        if (out.isTTY) {
          closeOpen();
          openLine = p.callId;
          if (holds === 0) spinner.start(`${p.name}  ${p.preview ?? ""}`, at);
        }
      } else if (p.phase === "after") {
        const s = started.get(p.callId);
        started.delete(p.callId);
        const secs = s ? ((Date.now() - s.at) / 1000).toFixed(1) : "?";
        const outcome = toolOutcome(p.name, p.isError === true, p.message, p.result);
        const mark = outcome.failed ? style.red("✗") : style.green("✓");
        const line = `${mark} ${truncateToWidth(`${p.name}  ${s?.preview ?? ""}`, width() - 10)} (${secs}s)`;
        const paint = outcome.failed ? style.red : style.yellow;
        const why =
          (outcome.note ? `\n    ${paint(truncateToWidth(outcome.note, width() - 4))}` : "") +
          below(p.callId, p.name, outcome.failed || p.isError === true, p.result);
        if (out.isTTY && openLine === p.callId) {
          spinner.stop();
          out.write(`${line}${why}\n`);
        } else {
          closeOpen();
          out.write(`${line}${why}\n`);
        }
        if (openLine === p.callId) openLine = undefined;
      }
    }),
    events.on("status", (s) => {
      if (muted > 0) return;
      clearWaiting();
      closeOpen();
      const mark = s.level === "info" ? "·" : s.level === "warn" ? style.yellow("!") : style.red("✗");
      out.write(`${mark} ${s.message}\n`);
    }),
  ];
  const detach = () => {
    spinner.stop();
    for (const off of offs) off();
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
