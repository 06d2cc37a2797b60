import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { InputLineGuard, type Terminal } from "./input-line.js";

/** A terminal that records what is written to it. */
function recordingTerminal(isTTY: boolean): Terminal & { written: string } {
  const events = new EventEmitter();
  const term = {
    written: "",
    isTTY,
    columns: 80,
    rows: 24,
    write(s: string) {
      term.written += s;
      return true;
    },
    on: (event: "resize", listener: () => void) => events.on(event, listener),
    off: (event: "resize", listener: () => void) => events.off(event, listener),
  };
  return term;
}

describe("InputLineGuard.notice", () => {
  it.each([true, false])("starts a line of its own when the answer stopped mid-line (tty %s)", (tty) => {
    const term = recordingTerminal(tty);
    const guard = new InputLineGuard(term, () => true);
    guard.out.write("Hello wor");
    guard.notice("(queued)");
    guard.out.write("ld\n");
    guard.notice("(queued again)");
    expect(term.written).toBe("Hello wor\n(queued)\nld\n(queued again)\n");
  });
});
