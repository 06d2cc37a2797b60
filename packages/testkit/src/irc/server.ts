// A fake IRCv3 server for what ngircd does not offer (ngircd 26 offers only `multi-prefix`): CAP
// negotiation (302), SASL PLAIN against a list of services accounts, and the `account-tag` on
// every relayed message of a logged-in sender. It is as strict as a real server (Ergo, Solanum):
// registration waits for CAP END, SASL follows the 3.1/3.2 numerics (900/903/904/905/906/907/908),
// a wrong password or a mechanism it lacks fails, commands before registration are 451, lines
// over 512 bytes (tags over 4096) are 417, and tags a client sends are never relayed: only the
// server says what account a message comes from.
import { randomUUID } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import {
  escapeTag,
  formatLine,
  type IrcMessage,
  ircFold,
  lineSizes,
  MAX_LINE_BYTES,
  MAX_TAG_BYTES,
  parseLine,
} from "./line.js";

export interface FakeIrcOptions {
  /** Services accounts that SASL PLAIN accepts: account name → password. */
  accounts?: Record<string, string>;
  /** Capabilities offered (default: sasl, account-tag, message-tags, cap-notify). */
  caps?: readonly string[];
}

export interface FakeIrc {
  port: number;
  /** Every SASL attempt, in order: the account asked for and whether it was accepted. */
  readonly logins: { account: string; ok: boolean }[];
  close(): Promise<void>;
}

const NAME = "irc.fake.test";
const SASL_CHUNK = 400;
const NICK = /^[A-Za-z[\]\\`_^{|}][A-Za-z0-9[\]\\`_^{|}-]{0,29}$/;
const DEFAULT_CAPS = ["sasl", "account-tag", "message-tags", "cap-notify"];

interface Client {
  socket: Socket;
  host: string;
  nick?: string;
  user?: string;
  registered: boolean;
  negotiating: boolean;
  caps: Set<string>;
  account?: string;
  sasl?: { buffer: string };
  channels: Set<string>;
}

export async function startFakeIrc(options: FakeIrcOptions = {}): Promise<FakeIrc> {
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const offered = new Set(options.caps ?? DEFAULT_CAPS);
  const clients = new Set<Client>();
  const nicks = new Map<string, Client>();
  const channels = new Map<string, { name: string; members: Set<Client> }>();
  const logins: FakeIrc["logins"] = [];

  const mask = (c: Client) => `${c.nick}!~${c.user}@${c.host}`;
  const send = (c: Client, line: string) => {
    if (!c.socket.destroyed) c.socket.write(`${line}\r\n`);
  };
  const reply = (c: Client, numeric: string, ...params: string[]) =>
    send(c, formatLine(NAME, numeric, [c.nick ?? "*", ...params]));
  const peersOf = (c: Client) => {
    const out = new Set<Client>();
    for (const ch of c.channels) for (const m of channels.get(ch)?.members ?? []) if (m !== c) out.add(m);
    return out;
  };
  /** What a recipient learns about the sender from the server: its account, a message id. */
  const tagsFor = (to: Client, from: Client) => {
    const tags: string[] = [];
    if (to.caps.has("account-tag") && from.account) tags.push(`account=${escapeTag(from.account)}`);
    if (to.caps.has("message-tags")) tags.push(`msgid=${randomUUID()}`);
    return tags.join(";");
  };

  const register = (c: Client) => {
    if (c.registered || c.negotiating || !c.nick || !c.user) return;
    c.registered = true;
    c.sasl = undefined;
    reply(c, "001", `Welcome to the fake network ${mask(c)}`);
    reply(c, "002", `Your host is ${NAME}`);
    reply(c, "003", "This server was created for a test");
    reply(c, "004", NAME, "fake-1", "io", "ntv");
    reply(
      c,
      "005",
      "CASEMAPPING=rfc1459",
      "CHANTYPES=#",
      "NICKLEN=30",
      "PREFIX=(ov)@+",
      "NETWORK=FakeNet",
      "are supported by this server",
    );
    reply(c, "422", "MOTD File is missing");
  };

  const cap = (c: Client, m: IrcMessage) => {
    const sub = (m.params[0] ?? "").toUpperCase();
    const who = c.registered ? (c.nick ?? "*") : "*";
    if (sub === "LS") {
      if (!c.registered) c.negotiating = true;
      const v302 = Number(m.params[1] ?? 0) >= 302;
      const list = [...offered].map((k) => (k === "sasl" && v302 ? "sasl=PLAIN" : k));
      send(c, formatLine(NAME, "CAP", [who, "LS", list.join(" ")]));
    } else if (sub === "REQ") {
      if (!c.registered) c.negotiating = true;
      const asked = (m.params[1] ?? "").split(" ").filter(Boolean);
      // All or nothing, as the spec says: one unknown capability refuses the whole request.
      if (asked.length === 0 || asked.some((k) => !offered.has(k.replace(/^-/, "")))) {
        send(c, formatLine(NAME, "CAP", [who, "NAK", asked.join(" ")]));
        return;
      }
      for (const k of asked) {
        if (k.startsWith("-")) c.caps.delete(k.slice(1));
        else c.caps.add(k);
      }
      send(c, formatLine(NAME, "CAP", [who, "ACK", asked.join(" ")]));
    } else if (sub === "LIST") send(c, formatLine(NAME, "CAP", [who, "LIST", [...c.caps].join(" ")]));
    else if (sub === "END") {
      if (c.sasl) reply(c, "906", "SASL authentication aborted");
      c.sasl = undefined;
      c.negotiating = false;
      register(c);
    } else reply(c, "410", sub, "Invalid CAP command");
  };

  const authenticate = (c: Client, m: IrcMessage) => {
    const arg = m.params[0] ?? "";
    if (!c.caps.has("sasl"))
      return reply(c, "904", "SASL authentication failed: the sasl capability is not enabled");
    if (c.account) return reply(c, "907", "You have already authenticated using SASL");
    if (arg === "*") {
      c.sasl = undefined;
      return reply(c, "906", "SASL authentication aborted");
    }
    if (!c.sasl) {
      if (arg.toUpperCase() !== "PLAIN") {
        reply(c, "908", "PLAIN", "are available SASL mechanisms");
        return reply(c, "904", "SASL authentication failed");
      }
      c.sasl = { buffer: "" };
      return send(c, "AUTHENTICATE +");
    }
    if (arg.length > SASL_CHUNK) {
      c.sasl = undefined;
      return reply(c, "905", "SASL message too long");
    }
    if (arg !== "+") c.sasl.buffer += arg;
    if (arg.length === SASL_CHUNK) return; // more follows
    const payload = c.sasl.buffer;
    c.sasl = undefined;
    const [authzid, authcid = "", password] = /^[A-Za-z0-9+/]*={0,2}$/.test(payload)
      ? Buffer.from(payload, "base64").toString("utf8").split("\0")
      : [];
    const ok =
      password !== undefined && (authzid === "" || authzid === authcid) && accounts.get(authcid) === password;
    logins.push({ account: authcid, ok });
    if (!ok) return reply(c, "904", "SASL authentication failed");
    c.account = authcid;
    reply(
      c,
      "900",
      `${c.nick ?? "*"}!~${c.user ?? "*"}@${c.host}`,
      authcid,
      `You are now logged in as ${authcid}`,
    );
    reply(c, "903", "SASL authentication successful");
  };

  const nick = (c: Client, m: IrcMessage) => {
    const wanted = m.params[0] ?? "";
    if (!wanted) return reply(c, "431", "No nickname given");
    if (!NICK.test(wanted)) return reply(c, "432", wanted, "Erroneous nickname");
    const holder = nicks.get(ircFold(wanted));
    if (holder && holder !== c) return reply(c, "433", wanted, "Nickname is already in use");
    if (c.nick) nicks.delete(ircFold(c.nick));
    const old = c.registered ? mask(c) : "";
    c.nick = wanted;
    nicks.set(ircFold(wanted), c);
    if (old) for (const to of [c, ...peersOf(c)]) send(to, formatLine(old, "NICK", [wanted]));
    register(c);
  };

  const join = (c: Client, m: IrcMessage) => {
    for (const name of (m.params[0] ?? "").split(",").filter(Boolean)) {
      if (!name.startsWith("#")) {
        reply(c, "403", name, "No such channel");
        continue;
      }
      const key = ircFold(name);
      const ch = channels.get(key) ?? { name, members: new Set<Client>() };
      channels.set(key, ch);
      if (ch.members.has(c)) continue;
      ch.members.add(c);
      c.channels.add(key);
      for (const to of ch.members) send(to, formatLine(mask(c), "JOIN", [ch.name]));
      reply(c, "353", "=", ch.name, [...ch.members].map((x) => x.nick).join(" "));
      reply(c, "366", ch.name, "End of /NAMES list");
    }
  };

  const message = (c: Client, m: IrcMessage) => {
    const [target = "", text] = m.params;
    if (!target) return reply(c, "411", `No recipient given (${m.command})`);
    if (!text) return reply(c, "412", "No text to send");
    const ch = channels.get(ircFold(target));
    const recipients = target.startsWith("#")
      ? ch?.members.has(c)
        ? [...ch.members].filter((x) => x !== c)
        : undefined
      : nicks.get(ircFold(target)) && [nicks.get(ircFold(target)) as Client];
    if (!recipients) {
      if (m.command === "NOTICE") return;
      return target.startsWith("#") && ch
        ? reply(c, "404", target, "Cannot send to channel")
        : reply(c, "401", target, "No such nick/channel");
    }
    for (const to of recipients) send(to, formatLine(mask(c), m.command, [target, text], tagsFor(to, c)));
  };

  const leave = (c: Client, why: string) => {
    if (!clients.delete(c)) return;
    if (c.registered) for (const to of peersOf(c)) send(to, formatLine(mask(c), "QUIT", [why]));
    for (const key of c.channels) channels.get(key)?.members.delete(c);
    if (c.nick && nicks.get(ircFold(c.nick)) === c) nicks.delete(ircFold(c.nick));
  };

  const onLine = (c: Client, raw: string) => {
    if (raw.trim() === "") return;
    const { tagBytes, restBytes } = lineSizes(raw);
    if (restBytes > MAX_LINE_BYTES || tagBytes > MAX_TAG_BYTES)
      return reply(c, "417", "Input line was too long");
    const m = parseLine(raw);
    if (m.command === "CAP") return cap(c, m);
    if (m.command === "AUTHENTICATE") return authenticate(c, m);
    if (m.command === "NICK") return nick(c, m);
    if (m.command === "PING") return send(c, formatLine(NAME, "PONG", [NAME, m.params[0] ?? ""]));
    if (m.command === "PONG") return;
    if (m.command === "QUIT") {
      leave(c, `Quit: ${m.params[0] ?? ""}`);
      send(c, `ERROR :Closing link: ${c.host} (Quit)`);
      c.socket.end();
      return;
    }
    if (m.command === "USER") {
      if (c.registered) return reply(c, "462", "You may not reregister");
      if (m.params.length < 4 || !m.params[0]) return reply(c, "461", "USER", "Not enough parameters");
      c.user = (m.params[0] ?? "").slice(0, 10);
      return register(c);
    }
    if (!c.registered) return reply(c, "451", "You have not registered");
    if (m.command === "JOIN") return join(c, m);
    if (m.command === "PRIVMSG" || m.command === "NOTICE") return message(c, m);
    if (m.command === "MODE") return reply(c, "221", "+i");
    reply(c, "421", m.command, "Unknown command");
  };

  const server: Server = createServer((socket) => {
    const c: Client = {
      socket,
      host: (socket.remoteAddress ?? "unknown").replace(/^::ffff:/, ""),
      registered: false,
      negotiating: false,
      caps: new Set(),
      channels: new Set(),
    };
    clients.add(c);
    socket.setEncoding("utf8");
    let buffer = "";
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let nl = buffer.search(/\r?\n/);
      while (nl >= 0) {
        const raw = buffer.slice(0, nl);
        buffer = buffer.slice(buffer[nl] === "\r" ? nl + 2 : nl + 1);
        onLine(c, raw);
        nl = buffer.search(/\r?\n/);
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => leave(c, "Connection closed"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    logins,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of clients) c.socket.destroy();
        server.close(() => resolve());
      }),
  };
}
