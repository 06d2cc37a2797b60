// After filtering, a remaining tool's description must not name a tool the model cannot call
// (T2): every sentence that mentions one is dropped. A mention is a removed tool's name in
// backticks, a name with an underscore as a whole word (`search_files`), or a plain one-word
// name followed by "tool" ("the patch tool") — so ordinary words such as "process" or "memory"
// in prose do not count. Tool authors: refer to other tools in one of those forms.

/** Splits into sentences, each keeping its end mark and the space after it. */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?]\s+|\n)(?=\S)/);
}

function lineBreakOf(sentence: string): string {
  const trailing = /\s*$/.exec(sentence)?.[0] ?? "";
  return trailing.includes("\n") ? trailing : "";
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function mentionPattern(names: readonly string[]): RegExp | undefined {
  if (names.length === 0) return undefined;
  const alternatives: string[] = [];
  for (const name of names) {
    const n = escapeRegex(name);
    alternatives.push(`\`${n}(?:\\(\\))?\``);
    if (/[_]/.test(name)) alternatives.push(`(?<![\\w-])${n}(?![\\w-])`);
    else alternatives.push(`(?<![\\w-])${n}\\s+tool\\b`);
  }
  return new RegExp(alternatives.join("|"), "i");
}

/**
 * Returns the description without the sentences that mention any of `removed` (the tool's own
 * name never counts). Whitespace left at the ends is trimmed.
 */
export function rewriteDescription(description: string, ownName: string, removed: readonly string[]): string {
  const pattern = mentionPattern(removed.filter((n) => n !== ownName));
  if (pattern === undefined || !pattern.test(description)) return description;
  // A dropped sentence keeps its line break so the lines around it stay apart.
  const kept = sentences(description).map((s) => (pattern.test(s) ? lineBreakOf(s) : s));
  return kept
    .join("")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
