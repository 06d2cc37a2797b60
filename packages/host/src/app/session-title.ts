// Session titles by a heuristic, not a model call: the first line of the first user message,
// without Markdown marks or attached file contents, cut at a word boundary. It costs nothing, works
// offline and without a key, and is set once, right after the first exchange is stored.
import type { Store } from "@iris/store";

const MAX = 60;

export function titleFrom(text: string): string {
  const firstLine =
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0 && !l.startsWith("```")) ?? "";
  const plain = firstLine
    .replace(/^[#>*\-\s]+/, "")
    .replace(/[*_`]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if ([...plain].length <= MAX) return plain;
  const cut = [...plain].slice(0, MAX).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Gives the session a title from `firstPrompt` when it has none yet. */
export async function ensureTitle(store: Store, sessionId: string, firstPrompt: string): Promise<void> {
  const row = await store.findSession(sessionId);
  if (!row || row.title) return;
  const title = titleFrom(firstPrompt);
  if (title) await store.setSessionTitle(sessionId, title);
}
