// A test IRC client that speaks the protocol itself (no library), for tests against a real IRC
// server (ngircd): register, join, send, and wait for lines. It answers PINGs so the server keeps it.
import { connect, type Socket } from "node:net";

export interface IrcLine {
  prefix: string;
  nick: string;
  command: string;
  params: string[];
  /** The trailing parameter (a PRIVMSG's text). */
  text: string;
}

function parse(raw: string): IrcLine {
  let rest = raw;
  let prefix = "";
  if (rest.startsWith(":")) {
    const sp = rest.indexOf(" ");
    prefix = rest.slice(1, sp);
    rest = rest.slice(sp + 1);
  }
  const colon = rest.indexOf(" :");
  const text = colon >= 0 ? rest.slice(colon + 2) : "";
  const head = (colon >= 0 ? rest.slice(0, colon) : rest).split(" ").filter(Boolean);
  const [command = "", ...params] = head;
  return { prefix, nick: prefix.split("!")[0] ?? "", command, params, text };
}

export class TestIrcClient {
  readonly lines: IrcLine[] = [];
  private waiters: { test: (l: IrcLine) => boolean; resolve: (l: IrcLine) => void }[] = [];
  private buffer = "";

  private constructor(
    private readonly socket: Socket,
    readonly nick: string,
  ) {
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      let nl = this.buffer.indexOf("\r\n");
      while (nl >= 0) {
        const raw = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 2);
        this.onLine(raw);
        nl = this.buffer.indexOf("\r\n");
      }
    });
  }

  /**
   * Registers as `nick`. Its mask (nick!user@host) has `user` (the nick by default) and the host
   * it connects from (`localAddress`, another loopback address such as 127.0.0.2).
   */
  static async connect(
    port: number,
    nick: string,
    opts: { user?: string; localAddress?: string; sasl?: { account: string; password: string } } = {},
  ): Promise<TestIrcClient> {
    const user = opts.user ?? nick;
    const socket = connect({
      port,
      host: "127.0.0.1",
      ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", reject);
    });
    const c = new TestIrcClient(socket, nick);
    // With `sasl`, the login goes first (SASL PLAIN inside CAP negotiation, as real clients do).
    if (opts.sasl) c.raw("CAP REQ :sasl");
    c.raw(`NICK ${nick}`);
    c.raw(`USER ${user} 0 * :test user`);
    if (opts.sasl) await c.saslPlain(opts.sasl.account, opts.sasl.password);
    await c.waitFor((l) => l.command === "001", 15_000, true);
    return c;
  }

  private onLine(raw: string): void {
    const line = parse(raw);
    if (line.command === "PING") {
      this.raw(`PONG :${line.text || line.params[0] || ""}`);
      return;
    }
    this.lines.push(line);
    this.waiters = this.waiters.filter((w) => {
      if (!w.test(line)) return true;
      w.resolve(line);
      return false;
    });
  }

  private async saslPlain(account: string, password: string): Promise<void> {
    await this.waitFor((l) => l.command === "CAP" && l.params[1] === "ACK", 15_000, true);
    this.raw("AUTHENTICATE PLAIN");
    await this.waitFor((l) => l.command === "AUTHENTICATE", 15_000, true);
    this.raw(`AUTHENTICATE ${Buffer.from(`${account}\0${account}\0${password}`).toString("base64")}`);
    const done = await this.waitFor((l) => l.command === "903" || l.command === "904", 15_000, true);
    if (done.command !== "903") throw new Error(`SASL login as ${account} failed: ${done.text}`);
    this.raw("CAP END");
  }

  raw(line: string): void {
    this.socket.write(`${line}\r\n`);
  }

  say(target: string, text: string): void {
    this.raw(`PRIVMSG ${target} :${text}`);
  }

  /** Joins and waits for the server's echo of the JOIN (ngircd delays it ~1 s after registration). */
  async join(channel: string): Promise<void> {
    this.raw(`JOIN ${channel}`);
    await this.waitFor((l) => l.command === "JOIN" && l.nick === this.nick, 15_000);
  }

  /** PRIVMSGs from `from` to this client or to `target`. */
  messagesFrom(from: string, target?: string): string[] {
    return this.lines
      .filter((l) => l.command === "PRIVMSG" && l.nick === from && (target ? l.params[0] === target : true))
      .map((l) => l.text);
  }

  /** The next (or an already received) line matching `test`. */
  waitFor(test: (l: IrcLine) => boolean, timeoutMs = 30_000, includePast = false): Promise<IrcLine> {
    if (includePast) {
      const found = this.lines.find(test);
      if (found) return Promise.resolve(found);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching IRC line within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
    });
  }

  /** Waits until `from` has sent lines whose text, joined, satisfies `done`. */
  async waitForText(
    from: string,
    done: (joined: string[]) => boolean,
    timeoutMs = 60_000,
  ): Promise<string[]> {
    const until = Date.now() + timeoutMs;
    while (!done(this.messagesFrom(from))) {
      const left = until - Date.now();
      if (left <= 0)
        throw new Error(
          `timed out; got from ${from}: ${JSON.stringify(this.messagesFrom(from)).slice(0, 500)}`,
        );
      await this.waitFor((l) => l.command === "PRIVMSG" && l.nick === from, left).catch(() => undefined);
    }
    return this.messagesFrom(from);
  }

  async quit(): Promise<void> {
    if (this.socket.destroyed) return;
    this.raw("QUIT :bye");
    await new Promise<void>((resolve) => {
      this.socket.once("close", () => resolve());
      setTimeout(() => {
        this.socket.destroy();
        resolve();
      }, 2000).unref();
    });
  }
}
