// Two things a process keeps in the profile's store for others to see (SQLite migration 0032,
// Postgres migration 2): the pages its web tools read (the `local` search backend of every later
// process searches them) and its MCP servers' live states (the dashboard shows them). A write that
// fails (a read-only home, a busy store) is logged and costs only that record: never a tool call
// or the process.
import type { Logger } from "@iris/llm";
import type { Store } from "@iris/store";
import { type McpServerStatus, type PageIndex, pageSnippet, pageTerms, searchTerms } from "@iris/tools";

export function storePageIndex(store: Store, logger: Logger): PageIndex {
  return {
    add(url, title, text) {
      if (store.isReadonly) return;
      store.webPages.put({ url, title, text, terms: pageTerms(title, text).join(" ") }).catch((err) => {
        logger.warn(
          `web page ${url} not kept for local search: ${err instanceof Error ? err.message : String(err)}`,
        );
      });
    },
    async search(query, count) {
      const terms = [...new Set(searchTerms(query))];
      return (await store.webPages.search(terms, count)).map((h) => ({
        title: h.title,
        url: h.url,
        snippet: pageSnippet(h.text, terms),
      }));
    },
  };
}

export interface McpStateRecorder {
  /** Never rejects: a state not recorded is logged. */
  record(statuses: McpServerStatus[]): Promise<void>;
  /** The process is closing: its rows go. */
  clear(): Promise<void>;
}

export function mcpStateRecorder(store: Store, platform: string, logger: Logger): McpStateRecorder {
  const owner = { platform, pid: process.pid, startedAt: Date.now() };
  let recorded = false;
  return {
    async record(statuses) {
      if (store.isReadonly || (statuses.length === 0 && !recorded)) return;
      try {
        await store.mcpStates.record(
          owner,
          statuses.map((s) => ({
            server: s.name,
            state: s.state,
            transport: s.transport,
            tools: s.tools.length,
            restarts: s.restarts,
            ...(s.lastError ? { lastError: s.lastError } : {}),
          })),
        );
        recorded = true;
      } catch (err) {
        logger.warn(`MCP server states not recorded: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
    async clear() {
      if (!recorded) return;
      try {
        await store.mcpStates.clear(owner.platform, owner.pid);
      } catch {
        // A crashed-looking row is what the dashboard shows then (its pid is gone).
      }
    },
  };
}
