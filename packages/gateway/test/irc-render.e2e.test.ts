// What an IRC user reads (SPEC G1), against a real ngircd with a client that speaks raw IRC: a
// Markdown answer arrives as plain text with IRC formatting codes (no `##`, `**` or fences), a
// long answer's first paragraph arrives while the model is still writing (and stays, marked
// interrupted, when a new message stops it), and a room's slash command works without naming the bot.
import {
  type FakeLlm,
  type Ngircd,
  type RecordedRequest,
  type Step,
  skipWithoutNgircd,
  startFakeLlm,
  startNgircd,
  type TempDir,
  TestIrcClient,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastMessage, runGateway, writeGatewayProfile } from "./profile.js";

const BOT = "irisfmt";
const MARKDOWN = [
  "## Summary",
  "",
  "The **build** passed and *all* tests ran.",
  "",
  "```sh",
  "npm test",
  "```",
  "",
  "- one",
  "- two",
].join("\n");
const FIRST = "# Essay\n\nThe **first** paragraph is short.";
const ESSAY = `${FIRST}\n\n${"The second paragraph goes on and on. ".repeat(20)}\n\nTHE-END`;

function reply(req: RecordedRequest): Step {
  const { said } = lastMessage(req);
  if (said.endsWith("markdown")) return { text: MARKDOWN };
  // Streams the first paragraph and a little more, then stalls: the answer is never complete.
  if (said.endsWith("essay"))
    return { fault: "stall", reply: { text: ESSAY, chunkSize: 10 }, afterEvents: 9 };
  return { text: `echo: ${said}` };
}

const skip = skipWithoutNgircd();

describe.skipIf(skip)("IRC rendering and streaming (ngircd)", () => {
  let ircd: Ngircd;
  let fake: FakeLlm;
  let dir: TempDir;
  let stopGateway: () => void;
  let running: Promise<number>;
  let bob: TestIrcClient;
  let err = "";

  beforeAll(async () => {
    [ircd, fake] = await Promise.all([startNgircd(["#fmt"]), startFakeLlm()]);
    fake.setHandler(reply);
    dir = tempDir("iris-gw-irc-fmt");
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: ${BOT}, channels: ["#fmt"], allowed_users: [bob]}`,
    ]);
    bob = await TestIrcClient.connect(ircd.port, "bob");
    await bob.join("#fmt");
    ({ stop: stopGateway, running } = runGateway(dir.path, (s) => {
      err += s;
    }));
    await bob.waitFor((l) => l.command === "JOIN" && l.nick === BOT, 30_000, true);
  }, 60_000);

  afterAll(async () => {
    stopGateway?.();
    const code = await running;
    await bob?.quit();
    await Promise.all([ircd?.stop(), fake?.close()]);
    dir?.cleanup();
    expect(code, err).toBe(0);
  }, 60_000);

  it("a room's slash command needs no mention", async () => {
    bob.say("#fmt", "/status");
    const lines = await bob.waitForText(BOT, (t) => t.length > 0);
    expect(bob.messagesFrom(BOT, "#fmt").length).toBeGreaterThan(0);
    expect(lines.join("\n")).not.toMatch(/echo:/);
    expect(fake.requests).toHaveLength(0);
  }, 60_000);

  it("renders Markdown as IRC text: bold codes, no ##, ** or fences", async () => {
    const before = bob.messagesFrom(BOT).length;
    bob.say(BOT, "markdown");
    const lines = (await bob.waitForText(BOT, (t) => t.slice(before).some((x) => x.includes("two")))).slice(
      before,
    );
    const text = lines.join("\n");
    expect(text).not.toMatch(/##|\*\*|```/);
    expect(lines).toContain("\x02Summary\x02");
    expect(text).toContain("The \x02build\x02 passed and \x1Dall\x1D tests ran.");
    expect(lines).toContain("npm test");
    expect(lines).toContain("• two");
  }, 60_000);

  it("delivers a finished paragraph while the model is still writing the rest", async () => {
    const before = bob.messagesFrom(BOT).length;
    bob.say(BOT, "essay");
    const lines = (await bob.waitForText(BOT, (t) => t.length >= before + 2)).slice(before);
    expect(lines.slice(0, 2)).toEqual(["\x02Essay\x02", "The \x02first\x02 paragraph is short."]);
    // The model stalled mid-answer: the rest has not been written, so it cannot have arrived.
    expect(bob.messagesFrom(BOT).join("\n")).not.toContain("THE-END");
  }, 60_000);

  it("a new message interrupts the stalled answer: what was written stays, marked, once (L7)", async () => {
    // The essay of the test before still stalls; a new message interrupts it (busy_policy interrupt).
    const before = bob.messagesFrom(BOT).length;
    bob.say(BOT, "never mind");
    const lines = (await bob.waitForText(BOT, (t) => t.slice(before).some((x) => x.includes("echo:")))).slice(
      before,
    );
    const text = lines.join("\n");
    const marked = lines.findIndex((l) => l.includes("\x1D(interrupted)\x1D"));
    expect(marked, text).toBeGreaterThanOrEqual(0);
    expect(marked).toBeLessThan(lines.findIndex((l) => l.includes("echo: never mind")));
    // The paragraphs that went out while it was written are not sent again.
    expect(bob.messagesFrom(BOT).filter((l) => l.includes("Essay"))).toHaveLength(1);
    expect(text).toContain("The second paragraph goes on");
    expect(text).not.toContain("THE-END");
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("(interrupted)");
  }, 60_000);
});
