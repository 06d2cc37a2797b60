// Slash commands of the interactive chat. Each returns whether the chat goes on.
import { findCommand, type Session } from "@iris/host";
import { formatUsage } from "./commands/usage-view.js";
import { padToWidth, truncateToWidth } from "./ui/width.js";

export interface SlashContext {
  host: Session;
  out: { write(s: string): unknown; columns?: number };
  exit(): void;
}

const HELP: [string, string][] = [
  ["/new", "start a new session"],
  ["/model [provider/]NAME", "switch model (the prompt is rebuilt; --yes skips the cost check)"],
  ["/context", "context window, compression trigger and last prompt size"],
  ["/compress", "compress this session's history now"],
  ["/usage", "tokens and cost of this session"],
  ["/sessions", "recent sessions"],
  ["/resume ID", "continue a stored session"],
  ["/reset", "the same as /new"],
  ["/status", "session, model and whether a turn runs"],
  ["/stop", "stop the running turn"],
  ["/help", "this list"],
  ["/exit", "quit (also Ctrl-D)"],
];

export async function runSlash(line: string, ctx: SlashContext): Promise<boolean> {
  const [cmd = "", ...rest] = line.trim().split(/\s+/);
  const arg = rest.join(" ");
  const { host, out } = ctx;
  switch (cmd) {
    case "/help":
      for (const [c, d] of HELP) out.write(`  ${padToWidth(c, 24)}${d}\n`);
      return true;
    case "/exit":
    case "/quit":
      ctx.exit();
      return false;
    case "/new": {
      const s = host.startSession();
      out.write(`new session ${s.id.slice(0, 8)}\n`);
      return true;
    }
    case "/resume": {
      if (!arg) {
        out.write("usage: /resume ID (see /sessions)\n");
        return true;
      }
      const s = host.resumeSession(arg);
      out.write(
        s ? `resumed ${s.id.slice(0, 8)}${s.title ? ` · ${s.title}` : ""}\n` : `no session '${arg}'\n`,
      );
      return true;
    }
    case "/sessions": {
      const width = Math.max(40, (out.columns ?? 100) - 1);
      for (const s of host.store.listSessions({ limit: 10 })) {
        const when = new Date(s.startedAt).toISOString().slice(0, 16).replace("T", " ");
        const mark = s.id === host.session.id ? "*" : " ";
        out.write(
          `${truncateToWidth(`${mark} ${s.id.slice(0, 8)}  ${when}  ${s.source}  ${s.title ?? ""}`, width)}\n`,
        );
      }
      return true;
    }
    case "/usage":
      out.write(
        formatUsage(host.store.getSession(host.session.id), host.store.usageForSession(host.session.id)),
      );
      return true;
    case "/model": {
      if (!arg) {
        out.write(`current: ${host.runtime.provider}/${host.runtime.model}\n`);
        return true;
      }
      return switchModel(host, out, rest);
    }
    case "/context":
      out.write(host.context.report());
      return true;
    case "/compress": {
      const done = await host.compressNow();
      out.write(
        done.ok
          ? `compressed (phase ${done.phase}): ${done.before} → about ${done.after} tokens; now in session ${done.sessionId.slice(0, 8)}\n`
          : `! ${done.warning}\n`,
      );
      return true;
    }
    default: {
      // The chat commands every front end shares (host's registry; the gateway uses it too).
      const shared = findCommand(cmd, "cli");
      if (!shared) {
        out.write(`unknown command ${cmd}; /help lists them\n`);
        return true;
      }
      out.write(
        `${await shared.run({ session: host, args: arg, newSession: () => host.startSession().id })}\n`,
      );
      return true;
    }
  }
}

/** The model a costly switch waits on: a second `/model NAME` (or `--yes`) proceeds (SPEC H7). */
const pendingSwitch = new WeakMap<Session, string>();

function switchModel(host: Session, out: SlashContext["out"], words: string[]): boolean {
  const yes = words.includes("--yes");
  const spec = words.filter((w) => w !== "--yes").join(" ");
  const risks = host.context.switchRisks();
  if (risks.length && !yes && pendingSwitch.get(host) !== spec) {
    pendingSwitch.set(host, spec);
    for (const r of risks) out.write(`! ${r}\n`);
    out.write(`repeat /model ${spec} (or add --yes) to switch anyway\n`);
    return true;
  }
  pendingSwitch.delete(host);
  const result = host.switchModel(spec);
  out.write(
    result.ok ? `now using ${host.runtime.provider}/${host.runtime.model}\n` : `iris: ${result.error}\n`,
  );
  // The cost warnings were shown and confirmed already.
  for (const w of result.ok ? result.warnings : []) if (!risks.includes(w)) out.write(`! ${w}\n`);
  return true;
}
