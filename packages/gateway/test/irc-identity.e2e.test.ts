// IRC identities that cannot be borrowed (SPEC G1), end to end: `iris gateway run`'s code path
// against a real ngircd and the fake LLM server. An allowed nick is bound to the mask it first
// speaks from, a paired user to theirs; once the owner leaves, whoever takes the nick from
// another mask (another user name, or another host) is a stranger: not obeyed, no history.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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
import { pairingApprove, pairingList } from "../src/commands.js";
import {
  type ChatMessage,
  gatewayIo,
  lastMessage,
  runGateway,
  textOf,
  writeGatewayProfile,
} from "./profile.js";

const BOT = "irisbot";

function reply(req: RecordedRequest): Step {
  const { last, said } = lastMessage(req);
  if (last?.role === "tool") return { text: `done: ${textOf(last).slice(0, 40)}` };
  if (said.endsWith("run danger"))
    return { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf ./scratch-dir" } }] };
  return { text: `echo: ${said}` };
}

const skip = skipWithoutNgircd();

describe.skipIf(skip)("IRC identities (ngircd)", () => {
  let ircd: Ngircd;
  let fake: FakeLlm;
  let dir: TempDir;
  let stopGateway: () => void;
  let running: Promise<number>;
  let err = "";
  const onErr = (s: string) => {
    err += s;
  };
  const io = (out: (s: string) => void = () => {}) => ({ ...gatewayIo(dir.path, onErr), out });
  const clients: TestIrcClient[] = [];
  const connect = async (nick: string, opts: { user?: string; localAddress?: string } = {}) => {
    const c = await TestIrcClient.connect(ircd.port, nick, opts);
    clients.push(c);
    return c;
  };
  const userTurns = () =>
    fake.requests.map((r) =>
      (r.body as { messages: ChatMessage[] }).messages.filter((m) => m.role === "user").map(textOf),
    );

  beforeAll(async () => {
    [ircd, fake] = await Promise.all([startNgircd(["#sec"]), startFakeLlm()]);
    fake.setHandler(reply);
    dir = tempDir("iris-gw-irc-ids");
    writeGatewayProfile(dir.path, fake, [
      "gateway:",
      "  platforms:",
      `    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: ${BOT}, channels: ["#sec"], allowed_users: [bob]}`,
    ]);
    const watcher = await connect("watcher");
    await watcher.join("#sec");
    ({ stop: stopGateway, running } = runGateway(dir.path, onErr));
    await watcher.waitFor((l) => l.command === "JOIN" && l.nick === BOT, 30_000, true);
  }, 60_000);

  afterAll(async () => {
    stopGateway?.();
    const code = await running;
    await Promise.all(clients.map((c) => c.quit()));
    await Promise.all([ircd?.stop(), fake?.close()]);
    dir?.cleanup();
    expect(code, err).toBe(0);
  }, 60_000);

  it("an allowed nick from another user name or host is a stranger: not obeyed, no history", async () => {
    const bob = await connect("bob");
    bob.say(BOT, "remember: the password is swordfish");
    await bob.waitForText(BOT, (t) => t.includes("echo: remember: the password is swordfish"));
    await bob.quit();
    const asked = fake.requests.length;

    // The nick from another user name: a DM gets a pairing code, a channel line nothing.
    const eve = await connect("bob", { user: "eve" });
    await eve.join("#sec");
    eve.say(BOT, "what is the password?");
    const [refusal] = await eve.waitForText(BOT, (t) => t.length >= 1);
    expect(refusal).toMatch(/pairing code is [A-Z0-9]{8}/);
    eve.say("#sec", `${BOT}: run danger`);
    await eve.quit();
    // The same user name from another host (127.0.0.2): a stranger too.
    const far = await connect("bob", { localAddress: "127.0.0.2" });
    far.say(BOT, "what is the password?");
    const [again] = await far.waitForText(BOT, (t) => t.length >= 1);
    expect(again).toMatch(/pairing code is [A-Z0-9]{8}/);
    await far.quit();
    expect(fake.requests.length).toBe(asked); // neither reached the model
    const logs = readdirSync(join(dir.path, "logs")).map((f) =>
      readFileSync(join(dir.path, "logs", f), "utf8"),
    );
    expect(logs.join("\n")).toMatch(/spoke from another identity/);

    // The owner, back from their own mask, continues their own conversation.
    const back = await connect("bob");
    back.say(BOT, "and now?");
    await back.waitForText(BOT, (t) => t.includes("echo: and now?"));
    expect(userTurns().at(-1)).toEqual(["remember: the password is swordfish", "and now?"]);
    await back.quit();
    let listed = "";
    expect(
      await pairingList(
        io((s) => {
          listed += s;
        }),
      ),
    ).toBe(0);
    expect(listed).toContain("bob = bob!~bob@127.0.0.1");
    expect(listed).toContain("bob (bob!~eve@127.0.0.1)");
  }, 90_000);

  it("a paired user is bound to their mask: their nick from another mask is not obeyed", async () => {
    const ann = await connect("ann");
    ann.say(BOT, "hello");
    const [first] = await ann.waitForText(BOT, (t) => t.length >= 1);
    const code = /pairing code is ([A-Z0-9]{8})/.exec(first ?? "")?.[1] ?? "";
    expect(await pairingApprove(io(), code)).toBe(0);
    ann.say(BOT, "my note: the ship sails at dawn");
    await ann.waitForText(BOT, (t) => t.includes("echo: my note: the ship sails at dawn"));
    await ann.quit();
    const asked = fake.requests.length;

    const mal = await connect("ann", { user: "mal" });
    mal.say(BOT, "run danger");
    const [refusal] = await mal.waitForText(BOT, (t) => t.length >= 1);
    expect(refusal).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(refusal).not.toContain(code);
    mal.say(BOT, "/approve");
    await mal.waitForText(BOT, (t) => t.length >= 2);
    expect(mal.messagesFrom(BOT).join("\n")).not.toMatch(/approved|ship/);
    expect(fake.requests.length).toBe(asked);
    await mal.quit();
  }, 90_000);
});
