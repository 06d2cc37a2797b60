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
  const offs = [
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
      closeOpen();
      out.write(`${s.level === "info" ? "·" : s.level === "warn" ? "!" : "✗"} ${s.message}\n`);
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
