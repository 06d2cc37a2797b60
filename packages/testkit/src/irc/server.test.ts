import { connect, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeIrc, startFakeIrc } from "./server.js";

/** A raw line client: send lines, wait for a line that matches. */
class Raw {
  readonly lines: string[] = [];
  private waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  private buffer = "";
  constructor(private readonly socket: Socket) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      const parts = this.buffer.split("\r\n");
      this.buffer = parts.pop() ?? "";
      for (const l of parts) {
        this.lines.push(l);
        for (const w of this.waiters.filter((x) => x.re.test(l))) w.resolve(l);
        this.waiters = this.waiters.filter((x) => !x.re.test(l));
      }
    });
  }
  static async open(port: number): Promise<Raw> {
    const s = connect(port, "127.0.0.1");
    await new Promise((r) => s.once("connect", r));
    return new Raw(s);
  }
  send(...lines: string[]) {
    for (const l of lines) this.socket.write(`${l}\r\n`);
  }
  /** The first line received from line `from` on (also before this call) that matches. */
  waitFor(re: RegExp, from = 0): Promise<string> {
    const seen = this.lines.slice(from).find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line ${re} in:\n${this.lines.join("\n")}`)), 5000);
      this.waiters.push({
        re,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
    });
  }
  close() {
    this.socket.destroy();
  }
}

const plain = (account: string, password: string) =>
  Buffer.from(`${account}\0${account}\0${password}`).toString("base64");

let irc: FakeIrc;
const opened: Raw[] = [];
const open = async () => {
  const r = await Raw.open(irc.port);
  opened.push(r);
  return r;
};
beforeEach(async () => {
  irc = await startFakeIrc({ accounts: { bob: "hunter2" } });
});
afterEach(async () => {
  for (const r of opened.splice(0)) r.close();
  await irc.close();
});

async function login(nick: string, password?: string): Promise<Raw> {
  const c = await open();
  c.send("CAP LS 302", `NICK ${nick}`, "USER u 0 * :u");
  await c.waitFor(/ CAP \* LS :.*sasl=PLAIN/);
  c.send("CAP REQ :sasl account-tag message-tags");
  await c.waitFor(/ CAP \S+ ACK /);
  if (password !== undefined) {
    c.send("AUTHENTICATE PLAIN");
    await c.waitFor(/^AUTHENTICATE \+$/);
    c.send(`AUTHENTICATE ${plain("bob", password)}`);
    await c.waitFor(/ 90[34] /);
  }
  c.send("CAP END");
  await c.waitFor(/ 001 /);
  return c;
}

describe("fake IRCv3 server", () => {
  it("holds registration until CAP END and logs a right password in (900, 903)", async () => {
    const c = await open();
    c.send("CAP LS 302", "NICK bob", "USER bob 0 * :b");
    await c.waitFor(/ CAP \* LS /);
    expect(c.lines.some((l) => / 001 /.test(l))).toBe(false);
    c.send("CAP REQ :sasl account-tag", "AUTHENTICATE PLAIN");
    await c.waitFor(/^AUTHENTICATE \+$/);
    c.send(`AUTHENTICATE ${plain("bob", "hunter2")}`);
    expect(await c.waitFor(/ 900 /)).toMatch(/bob!~bob@127\.0\.0\.1 bob :You are now logged in as bob/);
    await c.waitFor(/ 903 /);
    c.send("CAP END");
    await c.waitFor(/ 001 bob /);
    expect(irc.logins).toEqual([{ account: "bob", ok: true }]);
  });

  it("refuses a wrong password, an unknown mechanism, an unknown capability and early commands", async () => {
    const c = await open();
    c.send("CAP LS 302", "NICK eve", "USER eve 0 * :e", "PRIVMSG bob :hi");
    await c.waitFor(/ 451 /);
    c.send("CAP REQ :sasl nonsense");
    await c.waitFor(/ CAP \* NAK :sasl nonsense/);
    c.send("AUTHENTICATE PLAIN");
    await c.waitFor(/ 904 .*not enabled/);
    c.send("CAP REQ :sasl", "AUTHENTICATE SCRAM-SHA-256");
    await c.waitFor(/ 908 /);
    c.send("AUTHENTICATE PLAIN");
    await c.waitFor(/^AUTHENTICATE \+$/);
    const before = c.lines.length;
    c.send(`AUTHENTICATE ${plain("bob", "wrong")}`);
    await c.waitFor(/ 904 eve :SASL authentication failed$/, before);
    expect(irc.logins).toEqual([{ account: "bob", ok: false }]);
    c.send(`PRIVMSG x :${"a".repeat(600)}`);
    await c.waitFor(/ 417 /);
  });

  it("tags a logged-in sender's messages with their account; a client's own tags are never relayed", async () => {
    const bob = await login("bob", "hunter2");
    const eve = await login("eve");
    const watcher = await login("watch");
    watcher.send("JOIN #room");
    await watcher.waitFor(/ 366 watch #room /);
    bob.send("JOIN #room");
    eve.send("JOIN #room");
    await watcher.waitFor(/:bob!\S+ JOIN :#room/);
    await watcher.waitFor(/:eve!\S+ JOIN :#room/);
    bob.send("PRIVMSG #room :from bob");
    eve.send("@account=bob;+draft/x=1 PRIVMSG #room :from eve");
    expect(await watcher.waitFor(/PRIVMSG #room :from bob/)).toMatch(
      /^@account=bob;msgid=\S+ :bob!~u@127\.0\.0\.1 /,
    );
    const forged = await watcher.waitFor(/PRIVMSG #room :from eve/);
    expect(forged).not.toMatch(/account=/);
    expect(forged).toMatch(/^@msgid=\S+ :eve!~u@127\.0\.0\.1 PRIVMSG/);
  });
});
