// Output caps for command output (SPEC T6; defaults as Hermes' tool_output settings): a byte cap
// that keeps the head and the tail, a line cap that does the same, and a per-line length cap.
// Byte cuts fall on UTF-8 character boundaries and line cuts on UTF-16 ones.
import { describeBinary, isBinaryContent } from "../fs/binary.js";
import { cutLine } from "../fs/text.js";

export interface OutputCaps {
  maxBytes: number;
  maxLines: number;
  maxLineLength: number;
}

export const DEFAULT_OUTPUT_CAPS: OutputCaps = { maxBytes: 50_000, maxLines: 2000, maxLineLength: 2000 };

// The head gets 40 % of a budget and the tail 60 %: errors and summaries come last.
const HEAD_SHARE = 0.4;

/**
 * Collects a byte stream in bounded memory: the first bytes up to the head budget and the last
 * bytes up to the tail budget; what falls between is only counted.
 */
export class HeadTailCollector {
  readonly headCap: number;
  readonly tailCap: number;
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  total = 0;
  /** Newline bytes seen, to report the full output's line count. */
  newlines = 0;

  constructor(maxBytes: number) {
    this.headCap = Math.floor(maxBytes * HEAD_SHARE);
    this.tailCap = maxBytes - this.headCap;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.newlines++;
    let rest = chunk;
    if (this.headLen < this.headCap) {
      const take = Math.min(this.headCap - this.headLen, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headLen += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailLen += rest.length;
    while (this.tailLen > this.tailCap) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailLen - this.tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLen -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailLen -= excess;
      }
    }
  }

  /** The kept bytes as text: `tail` is undefined when nothing was cut. */
  parts(): { head: string; tail?: string } {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (head.length + tail.length === this.total)
      return { head: Buffer.concat([head, tail]).toString("utf8") };
    return {
      head: head.subarray(0, utf8CompleteLength(head)).toString("utf8"),
      tail: tail.subarray(utf8FirstCharStart(tail)).toString("utf8"),
    };
  }

  /** All kept text, capped by `caps` (bytes are already capped by the collector). */
  text(caps: Pick<OutputCaps, "maxLines" | "maxLineLength"> = NO_LINE_CAPS): string {
    // Raw binary (an image cat'ed, a compressed stream) is summarised, not sent as mojibake.
    const head = Buffer.concat(this.head);
    if (isBinaryContent(head))
      return `[binary output: ${describeBinary(head, this.total)}; not shown. Redirect it to a file, or pipe it through xxd/file.]`;
    return renderCapped(this.parts(), this.total, this.newlines, caps);
  }
}

const NO_LINE_CAPS = { maxLines: Number.POSITIVE_INFINITY, maxLineLength: Number.POSITIVE_INFINITY };

/**
 * Joins head and tail under the line caps with one marker that says what was cut in total,
 * whether the byte cap, the line cap or both removed it.
 */
function renderCapped(
  parts: { head: string; tail?: string },
  totalBytes: number,
  totalNewlines: number,
  caps: Pick<OutputCaps, "maxLines" | "maxLineLength">,
): string {
  const cut = (lines: string[]) => lines.map((l) => cutLine(l, caps.maxLineLength));
  const headLines = parts.head.split("\n");
  let shownHead: string[];
  let shownTail: string[];
  const headN = Math.floor(caps.maxLines * HEAD_SHARE);
  const tailN = caps.maxLines - headN;
  if (parts.tail === undefined) {
    if (headLines.length <= caps.maxLines) return cut(headLines).join("\n");
    shownHead = headLines.slice(0, headN);
    shownTail = headLines.slice(headLines.length - tailN);
  } else {
    const tailLines = parts.tail.split("\n");
    shownHead = headLines.slice(0, Math.min(headN, headLines.length));
    shownTail = tailLines.slice(Math.max(0, tailLines.length - tailN));
  }
  const shownBytes = Buffer.byteLength(shownHead.join("\n")) + Buffer.byteLength(shownTail.join("\n"));
  const marker = `[... ${totalBytes - shownBytes} bytes cut; output was ${totalBytes} bytes, ${totalNewlines} lines ...]`;
  return [...cut(shownHead), marker, ...cut(shownTail)].join("\n");
}

/** Length of the prefix of `buf` that ends on a complete UTF-8 character. */
export function utf8CompleteLength(buf: Uint8Array): number {
  // Look back at most 3 bytes for the lead byte of the last character.
  for (let i = buf.length - 1; i >= Math.max(0, buf.length - 4); i--) {
    const b = buf[i] as number;
    if ((b & 0xc0) === 0x80) continue; // continuation byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return buf.length - i >= need ? buf.length : i;
  }
  return buf.length;
}

/** Index of the first byte that starts a character (skips stray continuation bytes). */
export function utf8FirstCharStart(buf: Uint8Array): number {
  let i = 0;
  while (i < Math.min(buf.length, 3) && ((buf[i] as number) & 0xc0) === 0x80) i++;
  return i;
}

/** Cuts long lines, then keeps the first and last lines when there are too many. */
export function capLines(text: string, maxLines: number, maxLineLength: number): string {
  const newlines = text.split("\n").length - 1;
  return renderCapped({ head: text }, Buffer.byteLength(text), newlines, { maxLines, maxLineLength });
}

/** All three caps on a complete byte buffer. */
export function capOutput(buf: Buffer, caps: OutputCaps = DEFAULT_OUTPUT_CAPS): string {
  const c = new HeadTailCollector(caps.maxBytes);
  c.push(buf);
  return c.text(caps);
}
