// IRC identities bound to services accounts (SPEC G1) where the server offers IRCv3 SASL and
// account-tag, which ngircd does not (it offers only multi-prefix): `iris gateway run`'s code path
// against testkit's strict fake IRCv3 server and the fake LLM server. The bot logs in with SASL
// from .env; a user who spoke logged in is a stranger when the same nick!user@host speaks without
// the login or under another account (what a mask alone cannot tell apart on a shared host); an
// allowlist entry can name an account from anywhere; a wrong bot password stops the gateway with
// the account and variable named, never the password.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type FakeIrc,
  type FakeLlm,
  type RecordedRequest,
  type Step,
  startFakeIrc,
  startFakeLlm,
  type TempDir,
  TestIrcClient,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatMessage, lastMessage, runGateway, textOf, writeGatewayProfile } from "./profile.js";

const BOT = "irisbot";
const ACCOUNTS = { irisbot: "bot-sasl-pass-1", bob: "bob-pass-1", eve: "eve-pass-1", carol: "carol-pass-1" };

function reply(req: RecordedRequest): Step {
  return { text: `echo: ${lastMessage(req).said}` };
}

function ircProfile(home: string, fake: FakeLlm, irc: FakeIrc, password: string | undefined): void {
  writeGatewayProfile(home, fake, [
    "gateway:",
    "  platforms:",
    `    irc: {server: 127.0.0.1, port: ${irc.port}, nick: ${BOT}, channels: ["#sec"],`,
    `          allowed_users: [bob, "*!*@* account=carol"], sasl: {account: ${BOT}}}`,
  ]);
  if (password !== undefined) writeFileSync(join(home, ".env"), `IRC_SASL_PASSWORD=${password}\n`);
}

describe("IRC identities with SASL and account-tag (fake IRCv3 server)", () => {
  let irc: FakeIrc;
  let fake: FakeLlm;
  let dir: TempDir;
  let stopGateway: () => void;
  let running: Promise<number>;
  let err = "";
  const clients: TestIrcClient[] = [];
  const connect = async (nick: string, opts: Parameters<typeof TestIrcClient.connect>[2] = {}) => {
    const c = await TestIrcClient.connect(irc.port, nick, opts);
    clients.push(c);
    return c;
  };
  const userTurns = () =>
    fake.requests.map((r) =>
      (r.body as { messages: ChatMessage[] }).messages.filter((m) => m.role === "user").map(textOf),
    );

  beforeAll(async () => {
    [irc, fake] = await Promise.all([startFakeIrc({ accounts: ACCOUNTS }), startFakeLlm()]);
    fake.setHandler(reply);
    dir = tempDir("iris-gw-irc-account");
    ircProfile(dir.path, fake, irc, ACCOUNTS.irisbot);
    const watcher = await connect("watcher");
    await watcher.join("#sec");
    ({ stop: stopGateway, running } = runGateway(dir.path, (s) => {
      err += s;
    }));
    await watcher.waitFor((l) => l.command === "JOIN" && l.nick === BOT, 30_000, true);
  }, 60_000);

  afterAll(async () => {
    stopGateway?.();
    const code = await running;
    await Promise.all(clients.map((c) => c.quit()));
    await Promise.all([irc?.close(), fake?.close()]);
    dir?.cleanup();
    expect(code, err).toBe(0);
  }, 60_000);

  it("the bot logs in with SASL from .env before it registers", () => {
    expect(irc.logins).toEqual([{ account: BOT, ok: true }]);
    expect(err).not.toContain(ACCOUNTS.irisbot);
  });

  it("the same nick and mask without the login, or under another account, is a stranger", async () => {
    const bob = await connect("bob", { sasl: { account: "bob", password: ACCOUNTS.bob } });
    bob.say(BOT, "remember: the vault code is 4711");
    await bob.waitForText(BOT, (t) => t.includes("echo: remember: the vault code is 4711"));
    await bob.quit();
    const asked = fake.requests.length;

    // bob!~bob@127.0.0.1 again, not logged in: only the account tells it apart.
    const bare = await connect("bob");
    bare.say(BOT, "what is the vault code?");
    const [refusal] = await bare.waitForText(BOT, (t) => t.length >= 1);
    expect(refusal).toMatch(/pairing code is [A-Z0-9]{8}/);
    await bare.quit();
    // The same mask logged in as eve.
    const eve = await connect("bob", { sasl: { account: "eve", password: ACCOUNTS.eve } });
    eve.say(BOT, "what is the vault code?");
    const [again] = await eve.waitForText(BOT, (t) => t.length >= 1);
    expect(again).toMatch(/pairing code is [A-Z0-9]{8}/);
    await eve.quit();
    expect(fake.requests.length).toBe(asked);
    const logs = readdirSync(join(dir.path, "logs")).map((f) =>
      readFileSync(join(dir.path, "logs", f), "utf8"),
    );
    expect(logs.join("\n")).toMatch(/spoke from another identity/);

    const back = await connect("bob", { sasl: { account: "bob", password: ACCOUNTS.bob } });
    back.say(BOT, "and now?");
    await back.waitForText(BOT, (t) => t.includes("echo: and now?"));
    expect(userTurns().at(-1)).toEqual(["remember: the vault code is 4711", "and now?"]);
    await back.quit();
  }, 90_000);

  it("an allowlisted account is obeyed under any nick and host, and only when logged in", async () => {
    const carol = await connect("whoever", {
      localAddress: "127.0.0.2",
      sasl: { account: "carol", password: ACCOUNTS.carol },
    });
    carol.say(BOT, "hello from carol");
    await carol.waitForText(BOT, (t) => t.includes("echo: hello from carol"));
    await carol.quit();
    const asked = fake.requests.length;
    const plain = await connect("carol");
    plain.say(BOT, "hello");
    const [refusal] = await plain.waitForText(BOT, (t) => t.length >= 1);
    expect(refusal).toMatch(/pairing code is/);
    expect(fake.requests.length).toBe(asked);
    await plain.quit();
  }, 90_000);
});

describe("IRC SASL login failures", () => {
  it("a wrong password or a missing variable stops the gateway, naming the account and variable", async () => {
    const [irc, fake] = await Promise.all([startFakeIrc({ accounts: ACCOUNTS }), startFakeLlm()]);
    const dir = tempDir("iris-gw-irc-sasl-bad");
    try {
      ircProfile(dir.path, fake, irc, "not-the-password-9");
      let err = "";
      const wrong = runGateway(dir.path, (s) => {
        err += s;
      });
      expect(await wrong.running).toBe(1);
      expect(err).toMatch(
        /SASL login as irisbot failed \(the server refused the account or password.*IRC_SASL_PASSWORD/,
      );
      expect(err).not.toContain("not-the-password-9");
      expect(irc.logins).toEqual([{ account: BOT, ok: false }]);

      ircProfile(dir.path, fake, irc, "");
      err = "";
      const missing = runGateway(dir.path, (s) => {
        err += s;
      });
      expect(await missing.running).toBe(1);
      expect(err).toMatch(/sasl logs in as irisbot, but IRC_SASL_PASSWORD is not set/);
      expect(irc.logins).toHaveLength(1); // nothing was sent
    } finally {
      dir.cleanup();
      await Promise.all([irc.close(), fake.close()]);
    }
  }, 60_000);
});
