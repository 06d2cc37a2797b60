// The chat platforms' fakes set up for runPlatformSoak: `users` people, each with a DM.
import { createServer } from "node:net";
import {
  FakeDiscord,
  FakeMatrix,
  FakeMattermost,
  FakeSignal,
  FakeSlack,
  FakeTelegram,
  FakeWhatsapp,
} from "@iris/testkit";
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

export async function mattermostSoak(users: number): Promise<SoakPlatform> {
  const token = "mm-soak-secret-token";
  const mm = await FakeMattermost.start({ token });
  return {
    configLine: `mattermost: {url: "${mm.url}"}`,
    env: `MATTERMOST_TOKEN=${token}\n`,
    users: Array.from({ length: users }, (_, i) => {
      const user = mm.addUser(`user${i}`);
      const channel = mm.dm(user);
      return {
        ask: (message: string) => void mm.userPosts({ channel, user, message }),
        botTexts: () => mm.botPosts(channel).map((p) => ({ id: p.id, text: p.message })),
      };
    }),
    close: () => mm.close(),
  };
}

/** A port free now (the WhatsApp webhook keeps one address across the restart, as behind a proxy). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const a = server.address();
  await new Promise<void>((r) => server.close(() => r()));
  return typeof a === "object" && a ? a.port : 0;
}

export async function whatsappSoak(users: number): Promise<SoakPlatform> {
  const [token, appSecret, verify] = ["wa-soak-token", "wa-soak-app-secret", "wa-soak-verify"];
  const wa = await FakeWhatsapp.start({ token, appSecret, phoneNumberId: "1111", retryMs: 500 });
  const port = await freePort();
  wa.webhook = `http://127.0.0.1:${port}/whatsapp`;
  return {
    configLine: `whatsapp: {phone_number_id: "1111", api_root: "${wa.apiRoot}", port: ${port}}`,
    env: `WHATSAPP_TOKEN=${token}\nWHATSAPP_APP_SECRET=${appSecret}\nWHATSAPP_VERIFY_TOKEN=${verify}\n`,
    users: Array.from({ length: users }, (_, i) => {
      const from = `4915${String(10000000 + i)}`;
      return {
        ask: (text: string) => void wa.userSends({ from, name: `user${i}`, text }),
        botTexts: () => wa.sent.filter((m) => m.to === from).map((m) => ({ id: m.id, text: m.text ?? "" })),
      };
    }),
    close: () => wa.close(),
  };
}

export async function matrixSoak(users: number): Promise<SoakPlatform> {
  const [bot, token] = ["@iris:fake.test", "mx-soak-secret-token"];
  const people = Array.from({ length: users }, (_, i) => ({
    id: `@user${i}:fake.test`,
    room: `!dm${i}:fake.test`,
  }));
  const mx = await FakeMatrix.start({
    botUserId: bot,
    token,
    rooms: Object.fromEntries(people.map((p) => [p.room, [bot, p.id]])),
  });
  return {
    configLine: `matrix: {homeserver: "${mx.baseUrl}", user_id: "${bot}"}`,
    env: `MATRIX_ACCESS_TOKEN=${token}\n`,
    users: people.map((p) => ({
      ask: (text: string) => void mx.userSends(p.room, p.id, text),
      botTexts: () => mx.botMessages(p.room).map((m) => ({ id: m.eventId, text: m.text })),
    })),
    close: () => mx.close(),
  };
}
