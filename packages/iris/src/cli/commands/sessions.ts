// `iris sessions list|show|search`: read the profile's store without starting a model.
import { messagesOfPath } from "@iris/agent";
import { assistantText, textOf } from "@iris/llm";
import type { Store } from "@iris/store";
import type { GlobalFlags } from "../flags.js";
import { truncateToWidth } from "../ui/width.js";
import { withStore } from "./with-store.js";

const width = () => Math.max(40, (process.stdout.columns ?? 120) - 1);
const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export function sessionsList(flags: GlobalFlags, limit: number): number {
  return withStore(flags, (store) => {
    const rows = store.listSessions({ limit });
    if (!rows.length) process.stdout.write("no sessions yet\n");
    for (const s of rows) {
      const first = firstUserText(store, s.id);
      const parent = s.parentSessionId ? `  (continues ${s.parentSessionId.slice(0, 8)})` : "";
      const line = `${s.id}  ${when(s.startedAt)}  ${s.source.padEnd(8)} ${s.provider ?? "?"}/${s.model ?? "?"}  ${s.title ?? first}${parent}`;
      process.stdout.write(`${truncateToWidth(line, width())}\n`);
    }
    return 0;
  });
}

function firstUserText(store: Store, sessionId: string): string {
  const first = messagesOfPath(store.activePath(sessionId)).find((m) => m.role === "user");
  return first && first.role === "user" ? textOf(first.content).replace(/\s+/g, " ") : "";
}

export function sessionsShow(flags: GlobalFlags, id: string): number {
  return withStore(flags, (store) => {
    const session =
      store.findSession(id) ?? store.listSessions({ limit: 1000 }).find((s) => s.id.startsWith(id));
    if (!session) {
      process.stderr.write(`iris: no session '${id}'\n`);
      return 2;
    }
    process.stdout.write(
      `session ${session.id} · ${session.source} · ${session.provider ?? "?"}/${session.model ?? "?"} · started ${when(session.startedAt)}` +
        `${session.endReason ? ` · ended (${session.endReason})` : ""}${session.parentSessionId ? ` · parent ${session.parentSessionId}` : ""}\n\n`,
    );
    for (const m of messagesOfPath(store.activePath(session.id))) {
      if (m.role === "user") process.stdout.write(`› ${m.name ? `${m.name}: ` : ""}${textOf(m.content)}\n\n`);
      else if (m.role === "assistant") {
        const text = assistantText(m);
        if (text) process.stdout.write(`${text}\n\n`);
        for (const p of m.parts)
          if (p.type === "toolCall")
            process.stdout.write(`  ⚙ ${p.name} ${truncateToWidth(p.argumentsJson, width() - 6)}\n`);
      } else {
        const body = typeof m.content === "string" ? m.content : textOf(m.content);
        process.stdout.write(
          `  ${m.isError ? "✗" : "✓"} ${m.toolName}: ${truncateToWidth(body.replace(/\s+/g, " "), width() - 8)}\n`,
        );
      }
    }
    return 0;
  });
}

export function sessionsSearch(flags: GlobalFlags, query: string, limit: number): number {
  return withStore(flags, (store) => {
    const hits = store.search(query, { limit });
    if (!hits.length) process.stdout.write(`no matches for "${query}"\n`);
    for (const h of hits)
      process.stdout.write(
        `${truncateToWidth(`${h.sessionId.slice(0, 8)}  ${h.snippet.replace(/\s+/g, " ")}`, width())}\n`,
      );
    return 0;
  });
}
