// The kill test over Telegram: 300 questions from 30 users to `iris gateway run` (the built bin),
// SIGKILLed after 150 and started again. No answer comes twice, and every question is answered
// or, when the killed process had taken it without answering, reported once after the restart.
// The long run with figures is bench/gateway.ts.
import { describe, expect, it } from "vitest";
import { runPlatformSoak } from "./platform-soak.js";
import { telegramSoak } from "./soak-platforms.js";

describe("gateway soak over Telegram with a SIGKILL", () => {
  it("never answers twice and loses nothing across a SIGKILL and restart", async () => {
    const users = 30;
    const r = await runPlatformSoak(telegramSoak, { messages: 300, users, killAt: 150 });
    expect(r.duplicates).toBe(0);
    expect(r.lost).toBe(0);
    // At most one question per user was in flight at the kill.
    expect(r.reported + r.askedAgain).toBeLessThanOrEqual(users);
    expect(r.answered).toBeGreaterThanOrEqual(300 - users);
  }, 300_000);
});
