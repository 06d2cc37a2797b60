// The kill test over Matrix (a restart mid-conversation): 120 questions from 12 users to
// `iris gateway run` (the built bin) through the fake Matrix, SIGKILLed after 60 and started
// again. No answer comes twice, and every question is answered or, when the killed process had
// taken it without answering, reported once after the restart.
import { describe, expect, it } from "vitest";
import { runPlatformSoak } from "./platform-soak.js";
import { matrixSoak } from "./soak-platforms.js";

describe("gateway soak over Matrix with a SIGKILL", () => {
  it("never answers twice and loses nothing across a SIGKILL and restart", async () => {
    const users = 12;
    const r = await runPlatformSoak(matrixSoak, { messages: 120, users, killAt: 60 });
    expect(r.duplicates).toBe(0);
    expect(r.lost).toBe(0);
    expect(r.reported + r.askedAgain).toBeLessThanOrEqual(users);
    expect(r.answered).toBeGreaterThanOrEqual(120 - users);
  }, 300_000);
});
