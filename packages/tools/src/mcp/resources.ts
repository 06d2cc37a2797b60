// MCP resources attached with `@`: a message naming `@<server>:<uri>` (e.g.
// `@docs:file:///notes/plan.md`) gets that resource's text appended, in a block that names where
// it came from. A name that is not a configured server is left alone (it may be an e-mail
// address); a resource that cannot be read is an error naming it, so nothing is sent half-done.
import type { McpManager } from "./manager.js";

const MENTION = /(?<![\w@])@([A-Za-z0-9_-]{1,40}):([a-z][a-z0-9+.-]*:\/\/\S+)/g;
const MAX_RESOURCE_CHARS = 100_000;

/** The configured-or-not server names `@server:uri` mentions in `text`. */
export function mentionedServers(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((m) => m[1] ?? ""))];
}

export async function attachResources(manager: McpManager, text: string): Promise<string> {
  const blocks: string[] = [];
  for (const [, server = "", uri = ""] of text.matchAll(MENTION)) {
    const conn = manager.connections.get(server);
    if (!conn) continue;
    const contents = await conn.readResource(uri).catch((e: unknown) => {
      throw new Error(`@${server}:${uri} could not be read: ${(e as Error).message}`);
    });
    const body = contents
      .map((c) => ("text" in c && typeof c.text === "string" ? c.text : `[binary ${c.mimeType ?? "data"}]`))
      .join("\n")
      .slice(0, MAX_RESOURCE_CHARS);
    blocks.push(`<resource server="${server}" uri="${uri}">\n${body}\n</resource>`);
  }
  return blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text;
}
