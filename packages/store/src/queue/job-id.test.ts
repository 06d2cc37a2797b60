import { describe, expect, it } from "vitest";
import { fromBullId, toBullId } from "./job-id.js";

describe("job ids", () => {
  it("round-trips ids BullMQ would refuse, and keeps distinct ids distinct", () => {
    const ids = ["cron:daily:2026-11-30T08:00", "42", "-7", "%I42", "%3A", ":", "a:b:c", "item-1", "%", ""];
    const encoded = ids.map(toBullId);
    expect(new Set(encoded).size).toBe(ids.length);
    for (const [i, e] of encoded.entries()) {
      expect(e).not.toContain(":");
      expect(`${Number.parseInt(e, 10)}`).not.toBe(e);
      expect(fromBullId(e)).toBe(ids[i]);
    }
  });
});
