// The chat platforms' fakes set up for runPlatformSoak: `users` people, each with a DM.
import { FakeDiscord, FakeSignal, FakeSlack, FakeTelegram } from "@iris/testkit";
import type { SoakPlatform } from "./platform-soak.js";

export async function telegramSoak(users: number): Promise<SoakPlatform> {
  const token = "4242:soak-secret";
  const tg = await FakeTelegram.start({ token });
  return {
    configLine: `telegram: {api_root: "${tg.apiRoot}", poll_timeout_seconds: 5}`,
    env: `TELEGRAM_BOT_TOKEN=${token}\n`,
    users: Array.from({ length: users }, (_, i) => {
      const from = { id: 7000 + i, first_name: `user${i}` };
      return {
        ask: (text: string) => void tg.send({ chat: { id: from.id, type: "private" }, from, text }),
        botTexts: () =>
          tg
            .messages(from.id)
            .filter((m) => !m.deleted)
            .map((m) => ({ id: String(m.messageId), text: m.texts.at(-1) ?? "" })),
      };
    }),
    close: () => tg.close(),
  };
}

export async function discordSoak(users: number): Promise<SoakPlatform> {
  const token = `${Buffer.from("1100000000004194304").toString("base64")}.soak.secret`;
  const dc = await FakeDiscord.start({ token, heartbeatIntervalMs: 1000 });
  return {
    configLine: `discord: {api_base: "${dc.apiBase}"}`,
    env: `DISCORD_BOT_TOKEN=${token}\n`,
    users: Array.from({ length: users }, (_, i) => {
      const author = { id: String(1_200_000_000_000_000_000n + BigInt(i)), username: `user${i}` };
      const channelId = dc.dmChannel(author);
      return {
        ask: (content: string) => void dc.send({ channelId, author, content }),
        botTexts: () =>
          dc
            .messages(channelId)
            .filter((m) => !m.deleted)
            .map((m) => ({ id: m.id, text: m.texts.at(-1) ?? "" })),
      };
    }),
    close: () => dc.close(),
  };
}

export async function slackSoak(users: number): Promise<SoakPlatform> {
  const botToken = "xoxb-soak-bot-secret";
  const appToken = "xapp-soak-app-secret";
  const sl = await FakeSlack.start({ botToken, appToken, pingIntervalMs: 2000 });
  return {
    configLine: `slack: {api_url: "${sl.apiUrl}"}`,
    env: `SLACK_BOT_TOKEN=${botToken}\nSLACK_APP_TOKEN=${appToken}\n`,
    users: Array.from({ length: users }, (_, i) => {
      const user = sl.addUser(`user${i}`);
      const channel = sl.dm(user);
      return {
        ask: (text: string) => void sl.send({ channel, user, text }),
        botTexts: () => sl.botMessages(channel).map((m) => ({ id: m.ts, text: m.texts.at(-1) ?? "" })),
      };
    }),
    close: () => sl.close(),
  };
}

export async function signalSoak(users: number): Promise<SoakPlatform> {
  const account = "+15550000001";
  const numbers = Array.from({ length: users }, (_, i) => `+4930${String(1000000 + i)}`);
  const sg = await FakeSignal.start({
    account,
    users: numbers.map((number, i) => ({ number, name: `user${i}` })),
  });
  return {
    configLine: `signal: {url: "${sg.url}", account: "${account}", allowed_users: [${numbers.map((n) => `"${n}"`).join(", ")}]}`,
    env: "",
    users: numbers.map((number) => ({
      ask: (text: string) => void sg.userSends({ from: number, text }),
      botTexts: () => sg.sentTo(number).map((m) => ({ id: String(m.timestamp), text: m.message })),
    })),
    close: () => sg.close(),
  };
}
