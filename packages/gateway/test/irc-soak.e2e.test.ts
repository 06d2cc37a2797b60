// The soak, short: 300 questions from 10 users over IRC to `iris gateway run`, which
// is SIGKILLed after 150 and started again. No answer comes twice, and every question is answered
// or, when the killed process had read it without answering, reported once after the restart.
// The long run with figures is bench/gateway-irc-soak.ts.

import { skipWithoutNgircd } from "@iris/testkit";
import { describe, expect, it } from "vitest";
import { runSoak } from "./soak.js";

const skip = skipWithoutNgircd();

describe.skipIf(skip)("gateway soak over IRC with a SIGKILL", () => {
  it("never answers twice and loses nothing across a SIGKILL and restart", async () => {
    const users = 10;
    const r = await runSoak({ messages: 300, users, killAt: 150, newEvery: 20 });
    expect(r.duplicates).toBe(0);
    expect(r.lost).toBe(0);
    // At most one question per user was in flight at the kill: answered before it, reported
    // after the restart, or never read and asked again.
    expect(r.reported + r.askedAgain).toBeLessThanOrEqual(users);
    expect(r.answered).toBeGreaterThanOrEqual(300 - users);
  }, 300_000);
});
