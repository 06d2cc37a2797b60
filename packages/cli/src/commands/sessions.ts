// `iris sessions list|show|search|delete|export`: the profile's store, without starting a model.

import type { SessionRow, StoredRecords } from "@iris/host";
import { assistantText, type Message, textOf } from "@iris/llm";
import type { GlobalFlags } from "../flags.js";
import { resolveSession, shortId } from "../session-ref.js";
import { describeEnding } from "../ui/endings.js";
import { truncateToWidth } from "../ui/width.js";
import { type ExportFormat, exportSession } from "./session-export.js";
import { withRecords } from "./with-records.js";

const width = () => Math.max(40, (process.stdout.columns ?? 120) - 1);
const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export function sessionsList(flags: GlobalFlags, limit: number): Promise<number> {
  return withRecords(flags, async (records) => {
    const rows = await records.recent({ limit });
    if (!rows.length) process.stdout.write("no sessions yet\n");
    for (const s of rows) {
      const first = await firstUserText(records, s.id);
      const parent = s.parentSessionId ? `  (continues ${shortId(s.parentSessionId)})` : "";
      const line = `${shortId(s.id)}  ${when(s.startedAt)}  ${s.source.padEnd(8)} ${s.provider ?? "?"}/${s.model ?? "?"}  ${s.title ?? first}${parent}`;
      process.stdout.write(`${truncateToWidth(line, width())}\n`);
    }
    return 0;
  });
}

async function firstUserText(records: StoredRecords, sessionId: string): Promise<string> {
  const first = (await records.history(sessionId)).find((m) => m.role === "user");
  return first && first.role === "user" ? textOf(first.content).replace(/\s+/g, " ") : "";
}

export function sessionsShow(flags: GlobalFlags, id: string): Promise<number> {
  return withRecords(flags, async (records) => {
    const found = await resolveSession(records, id);
    if (!found.ok) {
      process.stderr.write(`iris: ${found.error}\n`);
      return 2;
    }
    const session = found.row;
    process.stdout.write(
      `session ${session.id}${session.title ? ` · ${session.title}` : ""} · ${session.source} · ${session.provider ?? "?"}/${session.model ?? "?"} · started ${when(session.startedAt)}` +
        `${session.endReason ? ` · ended (${describeEnding(session.endReason)})` : ""}${session.parentSessionId ? ` · parent ${session.parentSessionId}` : ""}\n\n`,
    );
    for (const m of await records.history(session.id)) {
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

export function sessionsSearch(flags: GlobalFlags, query: string, limit: number): Promise<number> {
  return withRecords(flags, async (records) => {
    const hits = await records.search(query, { limit });
    if (!hits.length) process.stdout.write(`no matches for "${query}"\n`);
    for (const h of hits)
      process.stdout.write(
        `${truncateToWidth(`${shortId(h.sessionId)}  ${h.snippet.replace(/\s+/g, " ")}`, width())}\n`,
      );
    return 0;
  });
}

export function sessionsDelete(flags: GlobalFlags, id: string): Promise<number> {
  return withRecords(flags, async (records) => {
    const found = await resolveSession(records, id);
    if (!found.ok) {
      process.stderr.write(`iris: ${found.error}\n`);
      return 2;
    }
    try {
      await records.deleteSession(found.row.id); // its receipts' file snapshots (for /rewind) with it
    } catch (err) {
      process.stderr.write(`iris: ${(err as Error).message}\n`);
      return 1;
    }
    process.stdout.write(`deleted ${found.row.id}${found.row.title ? ` (${found.row.title})` : ""}\n`);
    return 0;
  });
}

/**
 * `--format openai` lays a session out as batch writes its trajectories: the bin passes that
 * formatter in (batch is another front end, which the CLI does not import).
 */
export type OpenAiExport = (row: SessionRow, messages: readonly Message[]) => string;

export function sessionsExport(
  flags: GlobalFlags,
  id: string,
  format: ExportFormat | "openai",
  openAiExport?: OpenAiExport,
): Promise<number> {
  return withRecords(flags, async (records) => {
    const found = await resolveSession(records, id);
    if (!found.ok) {
      process.stderr.write(`iris: ${found.error}\n`);
      return 2;
    }
    const messages = await records.history(found.row.id);
    process.stdout.write(
      format !== "openai"
        ? exportSession(found.row, messages, format)
        : openAiExport
          ? openAiExport(found.row, messages)
          : "",
    );
    return 0;
  });
}
