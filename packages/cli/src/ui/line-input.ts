// The chat's input stream, between the terminal and node:readline. Bracketed paste (the terminal
// marks a paste with ESC[200~ … ESC[201~) keeps a multi-line paste whole: its line breaks become
// NEWLINE_MARK, which readline shows as one editable line, and the chat turns back into "\n" when
// the line is sent. Without this, a 3-line paste sent line 1, lost line 2 and left line 3 typed.

import { Transform, type TransformCallback } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/** Shown in the input line where a pasted line break is; sent as "\n". */
export const NEWLINE_MARK = "↵";
const START = "\u001b[200~";
const END = "\u001b[201~";
export const BRACKETED_PASTE_ON = "\u001b[?2004h";
export const BRACKETED_PASTE_OFF = "\u001b[?2004l";

export class PasteAwareInput extends Transform {
  private pasting = false;
  /** A chunk's tail that may be the start of a marker split across chunks. */
  private held = "";
  /** A character split across chunks (CJK, emoji) is joined, never turned into U+FFFD. */
  private readonly decoder = new StringDecoder("utf8");
  isTTY = true;

  constructor(private readonly tty: NodeJS.ReadStream) {
    super({ decodeStrings: true, encoding: "utf8" });
    this.isTTY = tty.isTTY === true;
  }

  setRawMode(mode: boolean): this {
    if (this.tty.isTTY) this.tty.setRawMode(mode);
    return this;
  }

  override _transform(chunk: Buffer | string, _enc: BufferEncoding, done: TransformCallback): void {
    let text = this.held + (typeof chunk === "string" ? chunk : this.decoder.write(chunk));
    this.held = "";
    let out = "";
    for (;;) {
      const marker = this.pasting ? END : START;
      const at = text.indexOf(marker);
      if (at < 0) break;
      out += this.convert(text.slice(0, at));
      text = text.slice(at + marker.length);
      this.pasting = !this.pasting;
    }
    // Hold back an unfinished marker at the end ("\u001b[20"), pass the rest on. A lone ESC is
    // the Esc key (interrupt): it is never held.
    const esc = text.lastIndexOf("\u001b");
    const tail = esc >= 0 ? text.slice(esc) : "";
    if (tail.length >= 2 && (this.pasting ? END : START).startsWith(tail)) {
      this.held = text.slice(esc);
      text = text.slice(0, esc);
    }
    out += this.convert(text);
    done(null, out);
  }

  private convert(text: string): string {
    return this.pasting ? text.replace(/\r\n|\r|\n/g, NEWLINE_MARK).replace(/\t/g, "  ") : text;
  }
}

/** The text to send for an input line: pasted line breaks restored. */
export function restoreNewlines(line: string): string {
  return line.split(NEWLINE_MARK).join("\n");
}
