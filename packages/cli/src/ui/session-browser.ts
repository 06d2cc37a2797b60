// `iris -r` without an id on a terminal, and `/resume` without one in the chat: the sessions of the current folder first (Tab shows every
// folder's), ↑/↓ to move, typed text filters by title or id, Enter resumes, Esc cancels. Sessions
// that never got a message and have no title are left out: there is nothing to resume in them.
import { emitKeypressEvents } from "node:readline";
import type { SessionRow } from "@iris/host";
import { shortId } from "../session-ref.js";
import { truncateToWidth } from "./width.js";

const SHOWN = 10;
const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export function worthResuming(s: SessionRow): boolean {
  return s.activeLeafId !== null || (s.title ?? "") !== "";
}

export interface BrowserState {
  rows: readonly SessionRow[];
  cwd: string;
  allFolders: boolean;
  filter: string;
  index: number;
}

export function visibleRows(st: BrowserState): SessionRow[] {
  const f = st.filter.toLowerCase();
  return st.rows.filter(
    (s) =>
      worthResuming(s) &&
      (st.allFolders || s.cwd === st.cwd) &&
      (!f || (s.title ?? "").toLowerCase().includes(f) || s.id.toLowerCase().includes(f)),
  );
}

/** The lines drawn for `st` (the selected row marked with ›). */
export function browserLines(st: BrowserState, width: number): string[] {
  const rows = visibleRows(st);
  const scope = st.allFolders ? "every folder" : "this folder";
  const lines = [
    truncateToWidth(
      `resume a session (${scope}; Tab: ${st.allFolders ? "this folder" : "every folder"}) · ↑↓ · type to filter · Enter · Esc`,
      width,
    ),
    truncateToWidth(`filter: ${st.filter}`, width),
  ];
  const start = Math.max(0, Math.min(st.index - SHOWN + 1, rows.length - SHOWN));
  for (const [i, s] of rows.slice(start, start + SHOWN).entries()) {
    const mark = start + i === st.index ? "›" : " ";
    const where = st.allFolders && s.cwd !== st.cwd ? `  [${s.cwd ?? "?"}]` : "";
    lines.push(
      truncateToWidth(
        `${mark} ${shortId(s.id)}  ${when(s.startedAt)}  ${s.title ?? "(untitled)"}${where}`,
        width,
      ),
    );
  }
  if (!rows.length)
    lines.push(st.allFolders ? "  (no sessions match)" : "  (none here: Tab shows every folder)");
  return lines;
}

interface Key {
  name?: string;
  ctrl?: boolean;
  sequence?: string;
}

/** Applies one key; returns the picked row, "cancel", or undefined to go on. */
export function pressKey(
  st: BrowserState,
  str: string | undefined,
  key: Key,
): SessionRow | "cancel" | undefined {
  const rows = visibleRows(st);
  if (key.name === "escape" || (key.ctrl && (key.name === "c" || key.name === "d"))) return "cancel";
  if (key.name === "return" || key.name === "enter") return rows[st.index] ?? undefined;
  if (key.name === "up") st.index = Math.max(0, st.index - 1);
  else if (key.name === "down") st.index = Math.min(Math.max(0, rows.length - 1), st.index + 1);
  else if (key.name === "tab") {
    st.allFolders = !st.allFolders;
    st.index = 0;
  } else if (key.name === "backspace") {
    st.filter = st.filter.slice(0, -1);
    st.index = 0;
  } else if (str && !key.ctrl && str >= " " && str.length === 1) {
    st.filter += str;
    st.index = 0;
  }
  return undefined;
}

/** Where the browser's keys come from: a stream that emits readline's `keypress` events. */
export interface KeyInput {
  on(event: "keypress", listener: (str: string | undefined, key: Key) => void): unknown;
  off(event: "keypress", listener: (str: string | undefined, key: Key) => void): unknown;
}

/**
 * Runs the browser on `keys` (in raw mode already: the chat's input, or stdin made raw by
 * onRawTerminal); resolves with the row picked or undefined (cancelled).
 */
export function browseSessions(
  rows: readonly SessionRow[],
  cwd: string,
  keys: KeyInput,
  output: { write(s: string): unknown; columns?: number },
): Promise<SessionRow | undefined> {
  const here = rows.some((s) => worthResuming(s) && s.cwd === cwd);
  const st: BrowserState = { rows, cwd, allFolders: !here, filter: "", index: 0 };
  const width = Math.max(40, (output.columns ?? 100) - 1);
  let drawn = 0;
  const draw = () => {
    const lines = browserLines(st, width);
    output.write(`${drawn > 1 ? `\u001b[${drawn - 1}A` : ""}\r\u001b[J${lines.join("\n")}`);
    drawn = lines.length;
  };
  return new Promise((resolve) => {
    const onKey = (str: string | undefined, key: Key | undefined) => {
      const picked = pressKey(st, str, key ?? {});
      if (picked === undefined) return draw();
      keys.off("keypress", onKey);
      output.write("\n");
      resolve(picked === "cancel" ? undefined : picked);
    };
    keys.on("keypress", onKey);
    draw();
  });
}

/** Runs `use` with stdin in raw mode giving keypress events (before the chat owns the terminal). */
export async function onRawTerminal<T>(
  input: NodeJS.ReadStream,
  use: (keys: KeyInput) => Promise<T>,
): Promise<T> {
  emitKeypressEvents(input);
  const wasRaw = input.isRaw;
  input.setRawMode(true);
  input.resume();
  try {
    return await use(input);
  } finally {
    input.setRawMode(wasRaw);
    input.pause();
  }
}
