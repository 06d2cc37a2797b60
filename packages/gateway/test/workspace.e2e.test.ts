// The gateway takes its workspace from config.yaml (SPEC T6): with terminal.backend ssh a chat
// user's commands run on the remote host (a real sshd on loopback, testkit/sshd.ts) as its user
// in remote_dir, with none of the profile's secrets (the bot token in .env stays here); a file a
// command made there is what send_file sends to the chat.
import {
  type FakeLlm,
  FakeTelegram,
  type RecordedRequest,
  type Sshd,
  type Step,
  skipWithoutSshd,
  startFakeLlm,
  startSshd,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2eGateway, until } from "./e2e-gateway.js";
import { lastMessage, textOf } from "./profile.js";

const TOKEN = "4646:bot-secret-token";
const MIN = { id: 501, first_name: "Min", username: "min" };

function reply(req: RecordedRequest): Step {
  const { last, said } = lastMessage(req);
  const messages = (
    req.body as { messages: { role: string; tool_calls?: { function: { name: string } }[] }[] }
  ).messages;
  const called = messages.at(-2)?.tool_calls?.[0]?.function.name;
  const asked = messages.filter((m) => m.role === "user").at(-1);
  if (last?.role === "tool" && called === "terminal" && textOf(asked).includes("make a report"))
    return { toolCalls: [{ name: "send_file", arguments: { path: "report.txt" } }] };
  if (last?.role === "tool") return { text: `done: ${textOf(last)}` };
  if (said.includes("make a report"))
    return {
      toolCalls: [{ name: "terminal", arguments: { command: "printf 'made remotely' > report.txt" } }],
    };
  return {
    toolCalls: [{ name: "terminal", arguments: { command: 'whoami; pwd; echo "[$TELEGRAM_BOT_TOKEN]"' } }],
  };
}

describe.skipIf(skipWithoutSshd())("the gateway on the ssh workspace (real sshd, fake Telegram)", () => {
  let sshd: Sshd;
  let tg: FakeTelegram;
  let fake: FakeLlm;
  let gw: E2eGateway;
  let remoteDir: string;

  beforeAll(async () => {
    [sshd, tg, fake] = await Promise.all([startSshd(), FakeTelegram.start({ token: TOKEN }), startFakeLlm()]);
    fake.setHandler(reply);
    remoteDir = `${sshd.home}/gateway-${process.pid}-${Date.now()}`;
    gw = await E2eGateway.start("iris-gw-workspace", fake, `TELEGRAM_BOT_TOKEN=${TOKEN}\n`, [
      "terminal:",
      "  backend: ssh",
      `  ssh: {host: ${sshd.host}, port: ${sshd.port}, user: ${sshd.user}, key_path: ${sshd.keyPath}, known_hosts: ${sshd.knownHosts}, remote_dir: ${remoteDir}}`,
      "gateway:",
      "  platforms:",
      `    telegram: {api_root: "${tg.apiRoot}", allowed_users: ["@min"], poll_timeout_seconds: 1}`,
    ]);
  }, 60_000);

  afterAll(async () => {
    const code = await gw?.close();
    await Promise.all([tg?.close(), fake?.close(), sshd?.close()]);
    expect(code, gw?.err).toBe(0);
  }, 60_000);

  it("a chat user's command runs on the remote host, in remote_dir, without the bot token", async () => {
    tg.send({ chat: { id: MIN.id, type: "private" }, from: MIN, text: "where are you?" });
    const [answer] = await until(
      () => tg.messages(MIN.id).map((m) => m.texts.at(-1) ?? ""),
      (t) => t.some((x) => x.startsWith("done:")),
      "the answer",
    ).then((t) => t.filter((x) => x.startsWith("done:")));
    expect(answer).toContain(`${sshd.user}\n${remoteDir}\n[]\n[exit code: 0]`);
    expect(JSON.stringify(fake.requests.map((r) => r.body))).not.toContain(TOKEN.split(":")[1]);
    expect(JSON.stringify(fake.requests[0]?.body)).toContain(
      `Workspace: ssh ${sshd.user}@${sshd.host}:${sshd.port}`,
    );
  }, 60_000);

  it("send_file sends a file a command made on the remote host (read through the workspace)", async () => {
    tg.send({ chat: { id: MIN.id, type: "private" }, from: MIN, text: "make a report" });
    const sent = await until(
      () => tg.messages(MIN.id).filter((m) => m.file),
      (m) => m.length > 0,
      "the report",
    );
    expect(sent[0]?.file).toMatchObject({ kind: "document", name: "report.txt" });
    expect(sent[0]?.file?.bytes.toString()).toBe("made remotely");
  }, 60_000);
});
