// The working directory, tracked in-band (Hermes's remote environments): the command runs under
// an EXIT trap that prints a marker line with $PWD on stdout, and the reader takes that line back
// out of the stream. Nothing is written beside the command, so the same protocol works on this
// machine, over SSH and in a container. The marker's nonce is fresh per command and the script
// spells it in two pieces, so echoing the script (set -x, ps) never prints the marker itself.
import { randomBytes } from "node:crypto";

const PREFIX = "__IRIS_CWD_";

/** `printf` of a marker line `\n<prefix><nonce> <value>\n`, the marker spelled in two pieces. */
export function printMarker(prefix: string, nonce: string, value: string): string {
  return `printf "\\n%s%s %s\\n" "${prefix}" "${nonce}" ${value}`;
}

export interface MarkedCommand {
  /** A POSIX shell script: the trap, then the command as given. */
  script: string;
  nonce: string;
}

export function markCommand(command: string): MarkedCommand {
  const nonce = randomBytes(8).toString("hex");
  // POSIX only (bash, dash and busybox ash all run it); the trap keeps the command's exit status.
  const trap = `trap '${printMarker(PREFIX, nonce, '"$PWD"')}' EXIT`;
  return { script: `${trap}\n${command}`, nonce };
}

/**
 * Takes the marker line out of a stdout stream: everything else is passed on in order (bytes
 * that could be the start of the marker are held back until it is clear they are not).
 */
export class CwdMarkerReader {
  private readonly marker: Buffer;
  private held: Buffer = Buffer.alloc(0);
  private inMarker = false;
  private done = false;
  /** The value the marker carried ($PWD), once its line is complete. */
  cwd: string | undefined;

  constructor(
    nonce: string,
    private readonly emit: (chunk: Buffer) => void,
    /** Another marker of the same shape (the SSH shell's pid and end markers). */
    prefix = PREFIX,
    private readonly onValue?: (value: string) => void,
  ) {
    this.marker = Buffer.from(`\n${prefix}${nonce} `, "utf8");
  }

  push(chunk: Buffer): void {
    if (this.done) {
      this.emit(chunk);
      return;
    }
    let buf = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = Buffer.alloc(0);
    if (!this.inMarker) {
      const at = buf.indexOf(this.marker);
      if (at === -1) {
        // Keep the longest tail that is a prefix of the marker.
        const keep = this.partialTail(buf);
        if (buf.length - keep > 0) this.emit(buf.subarray(0, buf.length - keep));
        this.held = Buffer.from(buf.subarray(buf.length - keep));
        return;
      }
      if (at > 0) this.emit(buf.subarray(0, at));
      buf = buf.subarray(at + this.marker.length);
      this.inMarker = true;
    }
    const nl = buf.indexOf(10);
    if (nl === -1) {
      this.held = Buffer.from(buf);
      return;
    }
    this.cwd = buf.subarray(0, nl).toString("utf8");
    this.inMarker = false;
    this.done = true;
    if (nl + 1 < buf.length) this.emit(buf.subarray(nl + 1));
    this.onValue?.(this.cwd);
  }

  /**
   * Output of another stream (stderr) arrives: what was held back goes out first, so the order
   * stays. The marker is printed by one write, so it is never split where this could cut it.
   */
  flush(): void {
    if (this.inMarker || this.done || this.held.length === 0) return;
    const held = this.held;
    this.held = Buffer.alloc(0);
    this.emit(held);
  }

  /** The stream ended: what was held back is output after all (an unfinished marker is dropped). */
  end(): void {
    if (!this.inMarker && this.held.length) this.emit(this.held);
    this.held = Buffer.alloc(0);
  }

  private partialTail(buf: Buffer): number {
    const max = Math.min(buf.length, this.marker.length - 1);
    for (let n = max; n > 0; n--) {
      if (buf.subarray(buf.length - n).equals(this.marker.subarray(0, n))) return n;
    }
    return 0;
  }
}
