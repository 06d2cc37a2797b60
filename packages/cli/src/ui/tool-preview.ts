// A short preview of what a tool returned, under its line in the chat (SPEC E1): the first lines
// of its output, dimmed, cut to the terminal's width, with the count of what was left out. The
// terminal tool's own status lines (exit code, working directory) are left to the ✓/✗ mark.

/** Lines of output shown per call. */
const PREVIEW_LINES = 3;
const STATUS =
  /^\[(exit code: -?\d+|killed by [^\]]*|interrupted[^\]]*|timed out[^\]]*|working directory is now [^\]]*)\]$/;

export function previewLines(result: string | undefined): string[] {
  if (!result) return [];
  const lines = result
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .filter((l) => !STATUS.test(l.trim()));
  while (lines.length && !lines.at(-1)?.trim()) lines.pop();
  while (lines.length && !lines[0]?.trim()) lines.shift();
  if (!lines.length) return [];
  const shown = lines.slice(0, PREVIEW_LINES);
  if (lines.length > PREVIEW_LINES) shown.push(`… ${lines.length - PREVIEW_LINES} more lines`);
  return shown;
}
