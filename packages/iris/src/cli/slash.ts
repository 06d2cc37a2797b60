// Slash commands of the interactive chat. Each returns whether the chat goes on.
import type { SessionHost } from "../app/host.js";
import { formatUsage } from "./commands/usage-view.js";
import { padToWidth, truncateToWidth } from "./ui/width.js";

export interface SlashContext {
  host: SessionHost;
  out: { write(s: string): unknown; columns?: number };
  exit(): void;
}

const HELP: [string, string][] = [
  ["/new", "start a new session"],
  ["/model [provider/]NAME", "switch model (the prompt is rebuilt)"],
  ["/usage", "tokens and cost of this session"],
  ["/sessions", "recent sessions"],
  ["/resume ID", "continue a stored session"],
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
      const result = host.switchModel(arg);
      out.write(
        result.ok ? `now using ${host.runtime.provider}/${host.runtime.model}\n` : `iris: ${result.error}\n`,
      );
      for (const w of result.ok ? result.warnings : []) out.write(`! ${w}\n`);
      return true;
    }
    default:
      out.write(`unknown command ${cmd}; /help lists them\n`);
      return true;
  }
}
