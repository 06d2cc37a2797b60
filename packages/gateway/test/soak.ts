// The IRC soak, shared by bench/gateway-irc-soak.ts (10,000
// messages) and a short test: the platforms' soak (platform-soak.ts: `iris gateway run`, users who
// each DM the bot and wait for each answer, a SIGKILL and restart part way) on a real ngircd with
// its flood limits lifted.

import { startNgircd, TestIrcClient } from "@iris/testkit";
import { type PlatformSoakResult, runPlatformSoak, type SoakPlatform } from "./platform-soak.js";

const BOT = "irisbot";

export interface SoakOptions {
  messages: number;
  users: number;
  /** Questions sent before the SIGKILL. */
  killAt: number;
  /** Each user sends /new every this many questions (0: never). */
  newEvery: number;
  /** Resident size samples: every this many answers. */
  sampleEvery?: number;
}

export type SoakResult = PlatformSoakResult;

/** ngircd and `users` IRC clients, each DMing the bot. */
async function ircSoak(users: number): Promise<SoakPlatform> {
  const ircd = await startNgircd([], undefined, { unthrottled: true });
  const clients = await Promise.all(
    Array.from({ length: users }, (_, u) => TestIrcClient.connect(ircd.port, `user${u}`)),
  );
  return {
    configLine: `irc: {server: 127.0.0.1, port: ${ircd.port}, nick: ${BOT}, channels: []}`,
    env: "",
    users: clients.map((c) => ({
      ask: (text) => c.say(BOT, text),
      botTexts: () =>
        c.lines.flatMap((l, i) =>
          l.command === "PRIVMSG" && l.nick === BOT ? [{ id: String(i), text: l.text }] : [],
        ),
    })),
    close: async () => {
      await Promise.all(clients.map((c) => c.quit()));
      await ircd.stop();
    },
  };
}

export function runSoak(o: SoakOptions): Promise<SoakResult> {
  return runPlatformSoak(ircSoak, o);
}
