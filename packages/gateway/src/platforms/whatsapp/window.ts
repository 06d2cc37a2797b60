// WhatsApp's customer-service window (SPEC G1): a business may send free-form messages to a user
// for 24 hours after the user's last message; outside it only an approved template. The last
// message time per user and the answers held for a user outside it are kept in a JSON file, so a
// restart neither reopens a closed window nor loses a held answer.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export const WINDOW_MS = 24 * 3600_000;

interface Saved {
  last: Record<string, number>;
  held: Record<string, string[]>;
}

export class ServiceWindow {
  private saved: Saved = { last: {}, held: {} };

  constructor(private readonly file: string) {
    try {
      const s = JSON.parse(readFileSync(file, "utf8")) as Partial<Saved>;
      this.saved = { last: s.last ?? {}, held: s.held ?? {} };
    } catch {
      // No file yet.
    }
  }

  /** The user wrote at `atMs`: the window runs from then. */
  userWrote(user: string, atMs: number): void {
    this.saved.last[user] = Math.max(this.saved.last[user] ?? 0, atMs);
    this.save();
  }

  isOpen(user: string, now = Date.now()): boolean {
    return now - (this.saved.last[user] ?? 0) < WINDOW_MS;
  }

  /** Holds an answer for when the user writes again. */
  hold(user: string, text: string): void {
    this.saved.held[user] = [...(this.saved.held[user] ?? []), text];
    this.save();
  }

  /** The answers held for the user, once. */
  takeHeld(user: string): string[] {
    const held = this.saved.held[user] ?? [];
    delete this.saved.held[user];
    if (held.length) this.save();
    return held;
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.saved), { mode: 0o600 });
    renameSync(`${this.file}.tmp`, this.file);
  }
}
