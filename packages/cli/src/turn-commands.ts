// Slash commands typed while a turn runs (SPEC E1): they are never queued as chat text. /stop
// ends the turn, /exit ends it and quits, the commands that only read (or change what the next
// approval does) run at once; the ones that would change the conversation under the running
// turn say so instead of waiting unseen.

/** Commands that read only: safe to run beside a turn. */
const AT_ONCE = new Set([
  "/status",
  "/help",
  "/usage",
  "/context",
  "/reasoning",
  "/skills",
  "/sessions",
  "/tools",
  "/mcp",
  "/approvals",
  "/copy",
]);

export type DuringTurn =
  | { kind: "stop" }
  | { kind: "exit" }
  | { kind: "run" }
  | { kind: "refuse"; message: string }
  /** Not a command (an MCP prompt or plain text): queued as a message. */
  | { kind: "message" };

export function duringTurn(text: string): DuringTurn {
  if (!text.startsWith("/") || text.startsWith("/mcp__")) return { kind: "message" };
  const cmd = (text.split(/\s+/)[0] ?? "").toLowerCase();
  if (cmd === "/stop") return { kind: "stop" };
  if (cmd === "/exit" || cmd === "/quit") return { kind: "exit" };
  if (AT_ONCE.has(cmd)) return { kind: "run" };
  return { kind: "refuse", message: `(${cmd} needs the turn to end first: /stop or Esc ends it)` };
}
