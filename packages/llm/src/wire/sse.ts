// Incremental Server-Sent Events parser (WHATWG HTML §9.2): bytes in, events out.
// Handles CRLF/LF/CR line ends (also split across chunks), multi-line data, comments, `event:`/`id:`
// fields and UTF-8 characters split across chunks. A line is kept as pieces until its end arrives,
// so a long line fed in many chunks costs linear time, not quadratic.
import type { SseEvent } from "./adapter.js";

/**
 * Bounds, so a broken or hostile server cannot grow our memory without end. Generous: the
 * largest legitimate event (a Responses `response.completed` repeating a long answer with its
 * encrypted reasoning) stays far below them.
 */
export const SSE_LIMITS = { maxLineChars: 16 * 1024 * 1024, maxEventChars: 32 * 1024 * 1024 };

/** A line or an event beyond SSE_LIMITS. */
export class SseOverflow extends Error {}

export class SseParser {
  private lineChars = 0;
  private eventChars = 0;

  constructor(private readonly limits = SSE_LIMITS) {}

  private readonly decoder = new TextDecoder("utf-8");
  /** Pieces of the line not yet terminated. */
  private linePieces: string[] = [];
  /** The previous chunk ended in CR: a LF at the start of the next one belongs to it. */
  private pendingCr = false;
  private atStreamStart = true;
  private dataLines: string[] = [];
  private eventType: string | undefined;
  private lastId: string | undefined;

  /** Feeds one chunk of bytes (or already-decoded text) and returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[] {
    const text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.feedText(text);
  }

  /**
   * The byte stream closed. An event without its terminating blank line is discarded, as the
   * standard says: a cut-off stream must not look complete.
   */
  end(): SseEvent[] {
    const rest = this.decoder.decode();
    const events = rest ? this.feedText(rest) : [];
    this.linePieces = [];
    this.dataLines = [];
    this.eventType = undefined;
    return events;
  }

  private feedText(input: string): SseEvent[] {
    let text = input;
    if (this.atStreamStart && text.length > 0) {
      this.atStreamStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const events: SseEvent[] = [];
    let start = 0;
    if (this.pendingCr) {
      this.pendingCr = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.pushPiece(text.slice(start, i));
      const line = this.linePieces.length === 1 ? this.linePieces[0]! : this.linePieces.join("");
      this.linePieces = [];
      this.lineChars = 0;
      this.processLine(line, events);
      if (c === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
    }
    if (start < text.length) this.pushPiece(text.slice(start));
    return events;
  }

  private pushPiece(piece: string): void {
    this.lineChars += piece.length;
    if (this.lineChars > this.limits.maxLineChars)
      throw new SseOverflow(`an SSE line longer than ${mb(this.limits.maxLineChars)}`);
    this.linePieces.push(piece);
  }

  private processLine(line: string, events: SseEvent[]): void {
    if (line.length === 0) {
      this.dispatch(events);
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ":" comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case "data":
        this.eventChars += value.length + 1;
        if (this.eventChars > this.limits.maxEventChars)
          throw new SseOverflow(`an SSE event larger than ${mb(this.limits.maxEventChars)}`);
        this.dataLines.push(value);
        break;
      case "event":
        this.eventType = value;
        break;
      case "id":
        if (!value.includes("\0")) this.lastId = value;
        break;
      default:
        // "retry" and unknown fields: nothing we act on.
        break;
    }
  }

  private dispatch(events: SseEvent[]): void {
    if (this.dataLines.length === 0) {
      this.eventType = undefined;
      this.eventChars = 0;
      return;
    }
    const data = this.dataLines.length === 1 ? this.dataLines[0]! : this.dataLines.join("\n");
    const event: SseEvent = { data };
    if (this.eventType) event.event = this.eventType;
    if (this.lastId !== undefined) event.id = this.lastId;
    events.push(event);
    this.dataLines = [];
    this.eventChars = 0;
    this.eventType = undefined;
  }
}

function mb(chars: number): string {
  return `${Math.round(chars / (1024 * 1024))} M characters`;
}
