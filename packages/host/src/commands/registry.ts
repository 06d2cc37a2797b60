// Chat commands (SPEC G2): one registry that every front end shares — the CLI's slash commands
// and the gateway's chat commands are the same names doing the same things. A front end gives
// the few actions only it can take (re-pointing its chat, answering a pending approval).
import { shortId } from "@iris/store";
import type { Session } from "../app/session.js";
import { formatUsageLine } from "./usage-line.js";

export type CommandSurface = "cli" | "gateway";

export interface CommandContext {
  session: Session;
  args: string;
  /** Starts a fresh conversation for this chat or screen; returns the new session id. */
  newSession(): string;
  /** Answers the approval this user is asked about; undefined where nothing waits. */
  /** `requestId`: which waiting approval (default the oldest). */
  answerApproval?(answer: "once" | "session" | "always" | "deny", requestId?: string): string | undefined;
}

export interface ChatCommand {
  name: string;
  aliases?: string[];
  usage?: string;
  help: string;
  surfaces: readonly CommandSurface[];
  run(ctx: CommandContext): Promise<string> | string;
}

const both: CommandSurface[] = ["cli", "gateway"];

export const CHAT_COMMANDS: readonly ChatCommand[] = [
  {
    name: "/new",
    aliases: ["/reset"],
    help: "start a new session (the old one stays in the store)",
    surfaces: both,
    run: (ctx) => `new session ${shortId(ctx.newSession())}`,
  },
  {
    name: "/model",
    usage: "/model [provider/]NAME",
    help: "show or switch the model",
    surfaces: both,
    run: (ctx) => {
      const s = ctx.session;
      if (!ctx.args) return `current: ${s.runtime.provider}/${s.runtime.model}`;
      const r = s.switchModel(ctx.args);
      if (!r.ok) return `! ${r.error}`;
      return [`now using ${s.runtime.provider}/${s.runtime.model}`, ...r.warnings.map((w) => `! ${w}`)].join(
        "\n",
      );
    },
  },
  {
    name: "/stop",
    help: "stop the running turn",
    surfaces: both,
    run: (ctx) => (ctx.session.interrupt() ? "stopping the running turn" : "nothing is running"),
  },
  {
    name: "/status",
    help: "session, model and whether a turn runs",
    surfaces: both,
    run: (ctx) => {
      const s = ctx.session;
      return `session ${shortId(s.id)} · ${s.runtime.provider}/${s.runtime.model} · ${s.busy ? "working" : "idle"}`;
    },
  },
  {
    name: "/usage",
    help: "tokens and cost of this session",
    surfaces: both,
    run: (ctx) => formatUsageLine(ctx.session.usage()),
  },
  {
    name: "/compress",
    help: "compress this session's history now",
    surfaces: both,
    run: async (ctx) => {
      if (ctx.session.busy) return "a turn is running; /compress after it ends";
      const done = await ctx.session.compressNow();
      return done.ok
        ? `compressed: ${done.before} → about ${done.after} tokens (session ${shortId(done.sessionId)})`
        : `! ${done.warning}`;
    },
  },
  {
    name: "/approve",
    usage: "/approve [session|always] [ID]",
    help: "allow the command the agent asked about (ID: which one, when several wait)",
    surfaces: ["gateway"],
    run: (ctx) => {
      const words = ctx.args.split(/\s+/).filter(Boolean);
      const scope = words.find((w) => w === "session" || w === "always") ?? "once";
      const id = words.find((w) => w !== scope);
      return (
        ctx.answerApproval?.(scope as "once" | "session" | "always", id) ??
        "nothing is waiting for your approval"
      );
    },
  },
  {
    name: "/deny",
    usage: "/deny [ID]",
    help: "refuse the command the agent asked about",
    surfaces: ["gateway"],
    run: (ctx) =>
      ctx.answerApproval?.("deny", ctx.args.trim() || undefined) ?? "nothing is waiting for your approval",
  },
  {
    name: "/help",
    help: "this list",
    surfaces: both,
    run: () => commandHelp("gateway"),
  },
];

export function findCommand(word: string, surface: CommandSurface): ChatCommand | undefined {
  const w = word.toLowerCase();
  return CHAT_COMMANDS.find((c) => c.surfaces.includes(surface) && (c.name === w || c.aliases?.includes(w)));
}

/** One line per command of a surface: the gateway's /help, and part of the CLI's. */
export function commandHelp(surface: CommandSurface): string {
  return CHAT_COMMANDS.filter((c) => c.surfaces.includes(surface))
    .map((c) => `${c.usage ?? [c.name, ...(c.aliases ?? [])].join(", ")} — ${c.help}`)
    .join("\n");
}
