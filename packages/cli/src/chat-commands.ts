// The everyday chat commands beside the core ones of slash.ts: /clear, /rename, /copy, /export,
// /retry and /init. Each returns what runSlash returns: whether the chat goes on, or a message to
// send now as the next turn.
import { writeFileSync } from "node:fs";
import { extname, resolve } from "node:path";
import type { Session } from "@iris/host";
import { assistantText, type Message } from "@iris/llm";
import { EXPORT_FORMATS, type ExportFormat, exportSession } from "./commands/session-export.js";
import { shortId } from "./session-ref.js";

type Out = { write(s: string): unknown };
export type ChatCommandOutcome = boolean | { send: string };

export const CHAT_COMMAND_HELP: [string, string][] = [
  ["/clear", "clear the screen and start a new session (the old one stays stored)"],
  ["/retry", "ask again: your last message once more, on a new branch"],
  ["/rename TITLE", "give this session a title"],
  ["/copy", "copy the last answer to the clipboard (the terminal's, OSC 52)"],
  ["/export [FILE]", "write this conversation to FILE (.md, .json or .jsonl; default iris-ID.md)"],
  ["/init", "have the agent write an AGENTS.md for this project"],
  ["/plan [TASK|accept|off]", "plan mode: the agent reads and searches only, until you accept its plan"],
];

const CLEAR_SCREEN = "\u001b[2J\u001b[3J\u001b[H";

/** The last answer of the session's active path, as text. */
async function lastAnswer(session: Session): Promise<string | undefined> {
  const history = await session.history();
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m?.role === "assistant") {
      const text = assistantText(m).trim();
      if (text) return text;
    }
  }
  return undefined;
}

async function retry(session: Session, out: Out): Promise<ChatCommandOutcome> {
  const turns = await session.stored.userTurns();
  const last = turns.at(-1);
  if (!last) {
    out.write("nothing to retry yet\n");
    return true;
  }
  const text = last.node.message ? userText(last.node.message) : undefined;
  if (text === undefined) {
    out.write("! the last message has no text to send again\n");
    return true;
  }
  if (last.number === 1) {
    // The first message has nothing before it to branch from: a new session asks it again.
    const s = await session.startSession();
    out.write(`retrying in new session ${shortId(s.id)} (message 1 opens a session)\n`);
    return { send: text };
  }
  const moved = await session.stored.branchBefore(last.number);
  if (!moved.ok) {
    out.write(`! ${moved.error}\n`);
    return true;
  }
  out.write(`retrying "${last.preview}" (the earlier answer stays on its branch)\n`);
  return { send: text };
}

function userText(m: Message): string | undefined {
  if (m.role !== "user") return undefined;
  if (typeof m.content === "string") return m.content;
  const parts = m.content.flatMap((p) => (p.type === "text" ? [p.text] : []));
  return parts.length ? parts.join("\n") : undefined;
}

async function exportTo(session: Session, out: Out, arg: string): Promise<boolean> {
  const file = resolve(arg || `iris-${shortId(session.id)}.md`);
  const ext = extname(file).slice(1) || "md";
  if (!EXPORT_FORMATS.includes(ext as ExportFormat)) {
    out.write(`! ${file}: the name ends in .${ext}; /export writes .md, .json or .jsonl\n`);
    return true;
  }
  const history = await session.history();
  if (!history.length) {
    out.write("nothing to export yet\n");
    return true;
  }
  try {
    writeFileSync(file, exportSession(await session.row(), history, ext as ExportFormat));
  } catch (err) {
    out.write(`! cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    return true;
  }
  out.write(`wrote ${file}\n`);
  return true;
}

const INIT_PROMPT = `Write an AGENTS.md for this project, in the current folder: the instructions a coding agent needs to work here.
Look around first (the README, the build and package files, the test set-up, the layout of the source, CI configuration), then write briefly:
- what the project is and how it is laid out (the main folders and what lives where);
- how to build, lint, run and test it (the exact commands, and how to run one test);
- the conventions the code follows (style, naming, error handling, where tests go).
If AGENTS.md exists already, read it and improve it rather than starting over. Keep it short and true: only what you saw in the project.`;

const PLAN_NOTE =
  "(Plan mode: you may read and search, nothing else; the tools that write or run commands come back once I accept the plan. Look into it, then answer with a step-by-step plan.)";
const PLAN_ACCEPTED = "The plan is accepted: carry it out now.";

/** `/plan TASK` enters plan mode (and sends TASK), `/plan accept` leaves it and has the plan carried out. */
function plan(session: Session, out: Out, arg: string): ChatCommandOutcome {
  const word = arg.trim();
  if (word === "off" || word === "accept") {
    if (!session.planMode) {
      out.write("not in plan mode (/plan TASK enters it)\n");
      return true;
    }
    session.planMode = false;
    out.write(
      `plan mode off: the agent may write and run commands again${word === "accept" ? "; carrying out the plan" : ""}\n`,
    );
    return word === "accept" ? { send: PLAN_ACCEPTED } : true;
  }
  session.planMode = true;
  out.write(
    "plan mode: the agent may read and search, not write or run commands; /plan accept carries the plan out, /plan off leaves\n",
  );
  return word ? { send: `${PLAN_NOTE}\n\n${word}` } : true;
}

/** Runs `cmd` if it is one of these commands; undefined when it is not. */
export async function runChatCommand(
  cmd: string,
  arg: string,
  session: Session,
  out: Out,
): Promise<ChatCommandOutcome | undefined> {
  switch (cmd) {
    case "/clear": {
      const s = await session.startSession();
      out.write(`${CLEAR_SCREEN}new session ${shortId(s.id)} (the earlier one is kept: /resume)\n`);
      return true;
    }
    case "/retry":
      return retry(session, out);
    case "/rename": {
      const title = arg.trim();
      if (!title) {
        out.write(`usage: /rename TITLE (now: ${(await session.title()) ?? "untitled"})\n`);
        return true;
      }
      await session.setTitle(title);
      out.write(`session ${shortId(session.id)} is now "${title}"\n`);
      return true;
    }
    case "/copy": {
      const text = await lastAnswer(session);
      if (!text) {
        out.write("no answer to copy yet\n");
        return true;
      }
      // OSC 52 sets the terminal's clipboard, also over ssh; no clipboard tool needed.
      out.write(`\u001b]52;c;${Buffer.from(text, "utf8").toString("base64")}\u0007`);
      out.write(`copied the last answer (${text.length} characters) to the clipboard\n`);
      return true;
    }
    case "/export":
      return exportTo(session, out, arg.trim());
    case "/init":
      return { send: INIT_PROMPT };
    case "/plan":
      return plan(session, out, arg);
    default:
      return undefined;
  }
}
