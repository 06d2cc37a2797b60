// Slash commands of the interactive chat. Each returns whether the chat goes on.
import { APPROVAL_MODES, findCommand, type Session, type SessionRow } from "@iris/host";
import { getProvider, listProviders } from "@iris/llm";
import { listPromptCommands } from "@iris/tools";
import { CHAT_COMMAND_HELP, runChatCommand } from "./chat-commands.js";
import { branchCommand } from "./commands/branch.js";
import { formatSessionTime } from "./commands/session-time.js";
import { formatSkillList } from "./commands/skills-view.js";
import { formatUsage } from "./commands/usage-view.js";
import { expandCustomCommand, listCustomCommands } from "./custom-commands.js";
import { resumeOnItsModel } from "./resume.js";
import { rewindCommand } from "./rewind.js";
import { fetchServerModels, listsFromServer } from "./server-models.js";
import { resolveSession, shortId } from "./session-ref.js";
import type { ChatScreen } from "./ui/chat-screen.js";
import type { Style } from "./ui/colors.js";
import { modelChoices } from "./ui/model-picker.js";
import { PICKER_QUESTION, pickedRow, pickerList, recentForPicker } from "./ui/session-picker.js";
import { replayLines } from "./ui/session-replay.js";
import { padToWidth } from "./ui/width.js";
import { WORKSPACE_HELP, workspaceCommand } from "./workspace-command.js";

export interface SlashContext {
  session: Session;
  out: { write(s: string): unknown; columns?: number };
  style: Style;
  /** Asks one question on the chat's input line. */
  ask(question: string): Promise<string>;
  screen: ChatScreen;
  exit(): void;
  /** Whether a turn runs now (slash commands may run during one). */
  busy(): boolean;
  /** Stops status lines of events until the returned release (the command reports itself). */
  muteStatus?(): () => void;
  /** Lets the user pick one of `rows` with arrows and a filter (on a terminal); undefined: cancelled. */
  /** Takes the keys at once; `rows` may still be loading (keys typed meanwhile are kept). */
  pickSession?(rows: Promise<readonly SessionRow[]>): Promise<SessionRow | undefined>;
}

const HELP: [string, string][] = [
  ["/new", "start a new session"],
  ["/model [[provider/]NAME]", "switch model; without a name, pick one (--yes skips the cost check)"],
  ["/context", "context window, compression trigger and last prompt size"],
  ["/compress", "compress this session's history now"],
  ["/usage", "tokens and cost of this session"],
  ["/branch [N]", "list your messages, or go back to before message N (your next message replaces it)"],
  ["/rewind [N]", "back to before your message N (default: the last), files that edits changed too"],
  ["/edit N TEXT", "replace your message N with TEXT on a new branch and send it"],
  ["/sessions", "recent sessions"],
  ["/skills", "the skills of this session"],
  ["/resume [ID]", "continue a stored session; without an id, pick one"],
  ["/reasoning", "the model's last reasoning in full"],
  ["/reset", "the same as /new"],
  ["/status", "session, model and whether a turn runs"],
  ["/tools", "the tools offered to the model in this session"],
  ["/mcp", "the MCP servers: state, transport, tools, last error"],
  ["/approvals [manual|smart|off]", "show or switch how tool calls are approved in this session"],
  ...CHAT_COMMAND_HELP,
  WORKSPACE_HELP,
  ["/stop", "stop the running turn"],
  ["/help", "this list"],
  ["/exit", "quit (also Ctrl-D)"],
];

const builtIn = () => new Set([...HELP.map(([c]) => c.split(" ")[0]!), "/quit", "/reset"]);

/** The custom commands of this folder and profile (read each time: an edit shows at once). */
const customCommands = (session: Session) =>
  listCustomCommands(process.cwd(), session.profile.home.root, builtIn());

/** For Tab completion. */
export function slashCommandNames(session?: Session): string[] {
  return [...builtIn(), ...(session ? customCommands(session).map((c) => c.command) : [])].sort();
}

const width = (out: SlashContext["out"]) => Math.max(40, (out.columns ?? 100) - 1);

async function resume(ctx: SlashContext, arg: string): Promise<void> {
  const { session, out, style } = ctx;
  let id: string | undefined;
  if (arg) {
    const found = await resolveSession(session.stored, arg, true);
    if (!found.ok) {
      out.write(`${found.error}\n`);
      return;
    }
    id = found.row.id;
  } else if (ctx.pickSession) {
    // On a terminal: this folder's sessions first, arrows, a filter (the browser of `iris -r`).
    // Not awaited first: the picker takes the keys now, so a filter typed straight after is kept.
    const rows = session.stored.recent({ limit: 500 }).then((all) => all.filter((s) => s.id !== session.id));
    const picked = await ctx.pickSession(rows);
    if (!picked) return;
    id = picked.id;
  } else {
    const rows = await recentForPicker(session.stored, process.cwd());
    out.write(`${pickerList(rows, width(out), session.id)}\n`);
    const picked = pickedRow(rows, await ctx.ask(PICKER_QUESTION));
    if (picked === "cancel") return;
    if (!picked) {
      out.write("not in the list\n");
      return;
    }
    id = picked.id;
  }
  const found = await session.stored.lookUp(id, { follow: false });
  if (!found.ok) return;
  const row = found.row;
  const note = await resumeOnItsModel(session, row, {});
  if (note) out.write(`! ${note}\n`);
  const s = session.session;
  out.write(`resumed ${shortId(s.id)}${s.title ? ` · ${s.title}` : ""}\n`);
  out.write(`${style.dim(replayLines(await session.history(), 3, width(out)).join("\n"))}\n\n`);
}

/** Whether the chat goes on, or a message to send now as the next turn (/edit). */
export type SlashOutcome = boolean | { send: string };

export async function runSlash(line: string, ctx: SlashContext): Promise<SlashOutcome> {
  const [cmd = "", ...rest] = line.trim().split(/\s+/);
  const arg = rest.join(" ");
  const { session, out, style } = ctx;
  switch (cmd) {
    case "/help": {
      for (const [c, d] of HELP) out.write(`  ${padToWidth(c, 27)}${d}\n`);
      for (const c of customCommands(session))
        out.write(`  ${padToWidth(`${c.command} [ARGS]`, 27)}${c.description} (${c.file})\n`);
      for (const p of await listPromptCommands(session.mcp)) {
        const args = p.arguments.map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`)).join(" ");
        out.write(`  ${padToWidth(`${p.command} ${args}`.trim(), 27)}${p.description} (MCP prompt)\n`);
      }
      return true;
    }
    case "/status":
      out.write(
        `session ${shortId(session.id)} · ${session.runtime.provider}/${session.runtime.model} · ${ctx.busy() ? "working" : "idle"}${session.planMode ? " · plan mode" : ""}\n`,
      );
      return true;
    case "/stop":
      // During a turn the chat itself stops it (see turn-commands.ts); here nothing runs.
      out.write("nothing is running\n");
      return true;
    case "/approvals": {
      // manual: ask; smart: the judge may approve low-risk commands; off: never ask (SPEC T4).
      if (!arg) {
        out.write(`approvals: ${session.approvalMode} (/approvals manual|smart|off switches this session)\n`);
        return true;
      }
      if (!APPROVAL_MODES.includes(arg as never)) {
        out.write(`unknown approval mode '${arg}' (manual, smart, off)\n`);
        return true;
      }
      try {
        session.setApprovalMode(arg as (typeof APPROVAL_MODES)[number]);
      } catch (err) {
        out.write(`iris: ${(err as Error).message}\n`);
        return true;
      }
      out.write(`approvals: ${session.approvalMode} for this session\n`);
      return true;
    }
    case "/tools":
      // The tools offered to the model in this session (the menu: toolsets and MCP servers).
      out.write(`${session.toolNames.join("\n") || "no tools"}\n`);
      return true;
    case "/mcp": {
      const servers = session.mcp.status();
      if (!servers.length) out.write("no MCP servers configured (mcp_servers in config.yaml)\n");
      for (const s of servers)
        out.write(
          `${s.name}  ${s.state}  ${s.transport}  ${s.tools.length} tools${s.lastError ? `\n  last error: ${s.lastError}` : ""}\n`,
        );
      return true;
    }
    case "/exit":
    case "/quit":
      ctx.exit();
      return false;
    case "/new": {
      const s = await session.startSession();
      out.write(`new session ${shortId(s.id)}\n`);
      return true;
    }
    case "/resume":
      await resume(ctx, arg);
      return true;
    case "/sessions":
      out.write(`${pickerList(await session.stored.recent({ limit: 10 }), width(out), session.id)}\n`);
      return true;
    case "/reasoning":
      out.write(
        ctx.screen.lastReasoning ? `${style.dim(ctx.screen.lastReasoning)}\n` : "no reasoning shown yet\n",
      );
      return true;
    case "/skills":
      out.write(formatSkillList(session.skills));
      return true;
    case "/usage":
      out.write(formatUsage(await session.row(), await session.usage()));
      out.write(
        formatSessionTime(await session.stored.activeTime(), session.config.agent.session_budget_seconds),
      );
      return true;
    case "/model": {
      if (!arg) {
        const { choices, note } = await modelChoices(session);
        out.write(`current: ${session.runtime.provider}/${session.runtime.model}\n`);
        if (note) out.write(`! ${note}\n`);
        for (const [i, c] of choices.entries()) out.write(`  ${padToWidth(String(i + 1), 3)} ${c.label}\n`);
        const a = (await ctx.ask("switch to (number or [provider/]name, Enter to keep): ")).trim();
        const n = Number(a);
        const spec = Number.isInteger(n) && n >= 1 && n <= choices.length ? choices[n - 1]!.spec : a;
        return spec ? switchModel(session, out, spec.split(/\s+/)) : true;
      }
      return switchModel(session, out, rest);
    }
    case "/context":
      out.write(await session.context.report());
      return true;
    case "/workspace":
      return workspaceCommand(session, arg, out, ctx.busy());
    case "/rewind":
      await rewindCommand(session, arg.trim(), out);
      return true;
    case "/branch":
    case "/edit":
      return branchCommand(cmd, rest, session, out);
    case "/compress": {
      const from = session.id;
      const unmute = ctx.muteStatus?.();
      const done = await session.compressNow().finally(() => unmute?.());
      if (!done.ok) {
        // A chat too short to compress is not a failure that threatens the context window.
        const short = /nothing to summarise[^.]*\)/.exec(done.warning);
        out.write(short ? `nothing to compress yet: ${short[0]}\n` : `! ${done.warning}\n`);
        return true;
      }
      // Pruning alone stays in the session; a summary moves the conversation to a child.
      const where = done.sessionId === from ? "same session" : `now in session ${shortId(done.sessionId)}`;
      out.write(`compressed (phase ${done.phase}): ${done.before} → about ${done.after} tokens; ${where}\n`);
      return true;
    }
    default: {
      const everyday = await runChatCommand(cmd, arg, session, out);
      if (everyday !== undefined) return everyday;
      const custom = customCommands(session).find((c) => c.command === cmd);
      if (custom) return { send: expandCustomCommand(custom, arg) };
      // The chat commands every front end shares (host's registry; the gateway uses it too).
      const shared = findCommand(cmd, "cli");
      if (!shared) {
        out.write(`unknown command ${cmd}; /help lists them\n`);
        return true;
      }
      out.write(
        `${await shared.run({ session: session, args: arg, newSession: async () => (await session.startSession()).id })}\n`,
      );
      return true;
    }
  }
}

/** Whether the current provider's server lists `model` (asked only for a custom or local one). */
async function servedHere(session: Session, model: string): Promise<boolean> {
  if (!listsFromServer(session.runtime.provider, session.profile)) return false;
  const found = await fetchServerModels(session.runtime);
  return found.ok && found.models.includes(model);
}

/** The model a costly switch waits on: a second `/model NAME` (or `--yes`) proceeds (SPEC H7). */
const pendingSwitch = new WeakMap<Session, string>();

async function switchModel(session: Session, out: SlashContext["out"], words: string[]): Promise<boolean> {
  const yes = words.includes("--yes");
  let spec = words.filter((w) => w !== "--yes").join(" ");
  // `x/y` is provider x's model y, unless this provider's server serves a model named `x/y` (a
  // local server's `Qwen/Qwen3-8B`, where Qwen also names a provider); with no provider x, a typo.
  const head = spec.includes("/") ? spec.slice(0, spec.indexOf("/")) : "";
  const current = session.runtime.provider;
  if (head && (await servedHere(session, spec))) {
    if (getProvider(head) || head in session.config.providers)
      out.write(`· ${current} serves '${spec}': taken as its model\n`);
    spec = `${current}/${spec}`;
  } else if (head && !getProvider(head) && !(head in session.config.providers)) {
    const known = [
      ...new Set([...Object.keys(session.config.providers), ...listProviders().map((p) => p.id)]),
    ];
    out.write(
      `iris: unknown provider '${head}' (providers: ${known.sort().join(", ")}); ` +
        `for a model named '${spec}' of ${current}: /model ${current}/${spec}\n`,
    );
    return true;
  }
  const risks = await session.context.switchRisks();
  if (risks.length && !yes && pendingSwitch.get(session) !== spec) {
    pendingSwitch.set(session, spec);
    for (const r of risks) out.write(`! ${r}\n`);
    out.write(`repeat /model ${spec} (or add --yes) to switch anyway\n`);
    return true;
  }
  pendingSwitch.delete(session);
  const result = await session.switchModel(spec);
  out.write(
    result.ok
      ? `now using ${session.runtime.provider}/${session.runtime.model}\n`
      : `iris: ${result.error}\n`,
  );
  // The cost warnings were shown and confirmed already.
  for (const w of result.ok ? result.warnings : []) if (!risks.includes(w)) out.write(`! ${w}\n`);
  return true;
}
