// The kill test (a restart mid-conversation) over Matrix, Mattermost and WhatsApp: 120 questions
// from 12 users to `iris gateway run` (the built bin) through each platform's fake, SIGKILLed
// after 60 and started again. No answer comes twice, and every question is answered or, when the
// killed process had taken it without answering, reported once after the restart.
import { describe, expect, it } from "vitest";
import { runPlatformSoak, type SoakPlatform } from "./platform-soak.js";
import { matrixSoak, mattermostSoak, whatsappSoak } from "./soak-platforms.js";

const platforms: [string, (users: number) => Promise<SoakPlatform>][] = [
  ["Matrix", matrixSoak],
  ["Mattermost", mattermostSoak],
  ["WhatsApp", whatsappSoak],
];

describe.each(platforms)("gateway soak over %s with a SIGKILL", (_name, make) => {
  it("never answers twice and loses nothing across a SIGKILL and restart", async () => {
    const users = 12;
    const r = await runPlatformSoak(make, { messages: 120, users, killAt: 60 });
    expect(r.duplicates).toBe(0);
    expect(r.lost).toBe(0);
    expect(r.reported + r.askedAgain).toBeLessThanOrEqual(users);
    expect(r.answered).toBeGreaterThanOrEqual(120 - users);
  }, 300_000);
});
