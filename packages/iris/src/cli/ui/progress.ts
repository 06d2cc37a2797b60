// One line per tool call (SPEC E1): "⚙ terminal  npm test" while it runs, then "✓"/"✗" with its
// duration. On a terminal the running line is rewritten in place; elsewhere each call gets one
// finished line. Lines are cut to the terminal's width by display columns (CJK-safe).
import type { AgentEvents } from "@iris/agent";
import { truncateToWidth } from "./width.js";

interface Out {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export function attachProgress(events: AgentEvents, out: Out): () => void {
  const started = new Map<string, { name: string; preview: string; at: number }>();
  let openLine: string | undefined;
  const width = () => Math.max(20, (out.columns ?? 100) - 1);
  const closeOpen = () => {
    if (openLine !== undefined) out.write("\n");
    openLine = undefined;
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
        started.set(p.callId, { name: p.name, preview: p.preview ?? "", at: Date.now() });
        if (out.isTTY) {
          closeOpen();
          openLine = p.callId;
          out.write(truncateToWidth(`⚙ ${p.name}  ${p.preview ?? ""}`, width()));
        }
      } else if (p.phase === "after") {
        const s = started.get(p.callId);
        started.delete(p.callId);
        const secs = s ? ((Date.now() - s.at) / 1000).toFixed(1) : "?";
        const line = truncateToWidth(`${p.isError ? "✗" : "✓"} ${p.name}  ${s?.preview ?? ""}`, width() - 8);
        if (out.isTTY && openLine === p.callId) out.write(`\r\u001b[K${line} (${secs}s)\n`);
        else {
          closeOpen();
          out.write(`${line} (${secs}s)\n`);
        }
        if (openLine === p.callId) openLine = undefined;
      }
    }),
    events.on("status", (s) => {
      clearWaiting();
      closeOpen();
      out.write(`${s.level === "info" ? "·" : s.level === "warn" ? "!" : "✗"} ${s.message}\n`);
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
