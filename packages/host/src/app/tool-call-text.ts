// A tool call as a person reads it (the turn view's line for an open call): its main argument
// (the command, the path, the query …) instead of raw JSON, and no absolute path of the machine it
// runs on (an API client must not learn the server's file layout): such a path shows as its last
// part. `preview` is the start of the call's JSON arguments, possibly cut short.
const MAIN_ARGS = ["command", "pattern", "query", "url", "goal", "question", "path", "file", "name"];

export function toolCallText(name: string, preview: string | undefined): string {
  const main = preview ? mainArgument(preview) : undefined;
  const shown = main ?? preview ?? "";
  const safe = hideAbsolutePaths(shown).replace(/\s+/g, " ").trim();
  return safe ? `${name}: ${safe.length > 80 ? `${safe.slice(0, 79)}…` : safe}` : name;
}

function mainArgument(preview: string): string | undefined {
  let args: unknown;
  try {
    args = JSON.parse(preview);
  } catch {
    // Cut short: read the first main field as far as it goes.
    for (const key of MAIN_ARGS) {
      const m = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)`).exec(preview);
      if (m?.[1] !== undefined) return unescapeJson(m[1]);
    }
    return undefined;
  }
  if (typeof args !== "object" || args === null) return undefined;
  const record = args as Record<string, unknown>;
  for (const key of MAIN_ARGS) if (typeof record[key] === "string") return record[key] as string;
  return undefined;
}

function unescapeJson(text: string): string {
  try {
    return JSON.parse(`"${text.replace(/\\$/, "")}"`) as string;
  } catch {
    return text;
  }
}

/** `/srv/iris/serve/requests/x/notes.txt` → `…/notes.txt` (also `C:\…` and `~/…`). */
export function hideAbsolutePaths(text: string): string {
  return text.replace(/(?:~|[A-Za-z]:)?(?:[/\\][^\s/\\"'`]+){2,}/g, (path) => {
    const parts = path.split(/[/\\]/);
    return `…/${parts[parts.length - 1]}`;
  });
}
