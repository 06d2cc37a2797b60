// The gateway end to end over IRC: `iris gateway run`'s code
// path against a real ngircd and the fake LLM server, with test clients that speak IRC themselves.
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
import { pairingApprove } from "../src/commands.js";
import {
  type ChatMessage,
  gatewayIo,
  lastMessage,
  runGateway,
  textOf,
  writeGatewayProfile,
} from "./profile.js";

const BOT = "irisbot";

/** 30 lines of 333 characters (newline included) and a 10-character last line: 10,000 in all. */
const LONG_LINES = [
  ...Array.from({ length: 30 }, (_, i) =>
    `L${String(i).padStart(2, "0")} ${"한글abc".repeat(70)}`.slice(0, 332),
  ),
  "END-OF-TXT",
];
const LONG = LONG_LINES.join("\n");

function reply(req: RecordedRequest): Step {
  const { last, said } = lastMessage(req);
  if (last?.role === "tool") return { text: `done: ${textOf(last).slice(0, 40)}` };
  if (said.endsWith("long")) return { text: LONG, chunkSize: 500 };
  if (said.endsWith("run danger"))
    return { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf ./scratch-dir" } }] };
  return { text: `echo: ${said}` };
}

const skip = skipWithoutNgircd();

describe.skipIf(skip)("gateway over IRC (ngircd)", () => {
  let ircd: Ngircd;
  let fake: FakeLlm;
  let dir: TempDir;
  let stopGateway: () => void;
  let running: Promise<number>;
  let ann: TestIrcClient;
  let bob: TestIrcClient;
  let err = "";
  const onErr = (s: string) => {
    err += s;
  };
  const io = () => gatewayIo(dir.path, onErr);

  beforeAll(async () => {
    [ircd, fake] = await Promise.all([startNgircd(["#test"]), startFakeLlm()]);
    fake.setHandler(reply);
    dir = tempDir("iris-gw-irc");
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: ${BOT}, channels: ["#test"], allowed_users: [bob]}`,
    ]);
    [ann, bob] = await Promise.all([
      TestIrcClient.connect(ircd.port, "ann"),
      TestIrcClient.connect(ircd.port, "bob"),
    ]);
    await bob.join("#test");
    ({ stop: stopGateway, running } = runGateway(dir.path, onErr));
    // The bot is up when it has joined the channel.
    await bob.waitFor((l) => l.command === "JOIN" && l.nick === BOT, 30_000, true);
  }, 60_000);

  afterAll(async () => {
    stopGateway?.();
    const code = await running;
    await Promise.all([ann?.quit(), bob?.quit()]);
    await Promise.all([ircd?.stop(), fake?.close()]);
    dir?.cleanup();
    expect(code, err).toBe(0);
  }, 60_000);

  it("refuses a stranger's DM with a pairing code, then answers once the code is approved", async () => {
    ann.say(BOT, "hello");
    const [refusal] = await ann.waitForText(BOT, (t) => t.length >= 1);
    const code = /pairing code is ([A-Z0-9]{8})/.exec(refusal ?? "")?.[1];
    expect(code, refusal).toBeDefined();
    expect(fake.requests).toHaveLength(0); // a stranger never reaches the model
    expect(await pairingApprove(io(), code ?? "")).toBe(0);
    ann.say(BOT, "hello again");
    const lines = await ann.waitForText(BOT, (t) => t.some((x) => x.startsWith("echo:")));
    expect(lines.at(-1)).toBe("echo: hello again");
  }, 60_000);

  it("stays silent in a channel unless mentioned", async () => {
    bob.say("#test", "just chatting with people");
    bob.say("#test", `${BOT}: are you there?`);
    const lines = await bob.waitForText(BOT, (t) => t.some((x) => x.includes("are you there")));
    // Lines are handled in order: the unmentioned one would have been answered first.
    expect(bob.messagesFrom(BOT, "#test")).toEqual(["echo: [bob] are you there?"]);
    expect(lines.join("\n")).not.toContain("just chatting");
  }, 60_000);

  it("asks for an approval in chat and runs the command once it is approved", async () => {
    bob.say(BOT, "run danger");
    await bob.waitForText(BOT, (t) => t.some((x) => x.startsWith("Approval needed")));
    const asked = bob.messagesFrom(BOT).find((x) => x.startsWith("Approval needed")) ?? "";
    expect(asked).toContain("rm -rf ./scratch-dir");
    bob.say(BOT, "/approve");
    const lines = await bob.waitForText(BOT, (t) => t.some((x) => x.startsWith("done:")));
    expect(lines).toContain("approved (once)");
  }, 60_000);

  it("/new starts a fresh session for the chat", async () => {
    bob.say(BOT, "remember me");
    await bob.waitForText(BOT, (t) => t.includes("echo: remember me"));
    bob.say(BOT, "/new");
    await bob.waitForText(BOT, (t) => t.some((x) => x.startsWith("new session")));
    bob.say(BOT, "who am I");
    await bob.waitForText(BOT, (t) => t.includes("echo: who am I"));
    const body = fake.requests.at(-1)?.body as { messages: ChatMessage[] };
    const users = body.messages.filter((m) => m.role === "user").map(textOf);
    expect(users).toEqual(["who am I"]);
  }, 60_000);

  it("delivers a 10,000-character reply whole and in order", async () => {
    expect(LONG.length).toBe(10_000);
    bob.say(BOT, "long");
    const lines = await bob.waitForText(BOT, (t) => t.includes("END-OF-TXT"), 90_000);
    // An IRC line carries ~512 bytes: each 332-character line (~600 UTF-8 bytes) arrives as two
    // PRIVMSGs, cut between whole Hangul syllables, in order.
    const from = lines.findIndex((l) => l.startsWith("L00 "));
    const got = lines.slice(from);
    for (const l of got) expect(Buffer.byteLength(l)).toBeLessThanOrEqual(350);
    expect(got.join("")).toBe(LONG.replace(/\n/g, ""));
    expect(got.join("")).not.toContain("\uFFFD");
  }, 120_000);
});
