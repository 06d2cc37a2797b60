// Approval subjects for tools that are not shells: the shell command that would have the same
// effect, so the one pattern list covers them (write_file into ~/.ssh reads as `> ~/.ssh/…`).

/** Single-quotes a word for the shell. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Subject for a tool that writes or replaces the file at `path` (write_file, patch). */
export function fileWriteSubject(path: string): string {
  return `> ${shellQuote(path)}`;
}
