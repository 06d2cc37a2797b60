// The last lines a server wrote to stderr, kept so a failure can be reported with them.
const MAX_CHARS = 2000;

export class StderrTail {
  private buffer = "";

  push(text: string): void {
    this.buffer = (this.buffer + text).slice(-MAX_CHARS * 2);
  }

  /** The newest lines, at most about 2,000 characters, on one line each separated by " | ". */
  text(maxLines = 8): string {
    const lines = this.buffer.split(/\r?\n/).filter((l) => l.trim() !== "");
    return lines.slice(-maxLines).join(" | ").slice(-MAX_CHARS);
  }
}
