// What the gateway's end-to-end tests share: a profile folder whose config points the model at
// the fake LLM server, with the test's own extra lines (gateway settings and platforms), a
// readable text of a chat message the fake received, and a gateway run on that folder.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm, RecordedRequest } from "@iris/testkit";
import type { CommandIo } from "../src/commands.js";
import { webchatAddUser } from "../src/platforms/webchat/commands.js";
import { gatewayRun, type RunOptions } from "../src/run.js";

export type ChatMessage = { role: string; content?: unknown };

export const textOf = (m: ChatMessage | undefined) =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");

/** The newest message of a request the fake received, and its text. */
export function lastMessage(req: RecordedRequest): { last: ChatMessage | undefined; said: string } {
  const messages = (req.body as { messages: ChatMessage[] }).messages;
  const last = messages[messages.length - 1];
  return { last, said: textOf(last) };
}

/** Sets up the io of a command on `home`: its env (locks in `home`), no output, errors to `err`. */
export function gatewayIo(home: string, err: (s: string) => void): CommandIo {
  return { env: { IRIS_HOME: home, IRIS_LOCK_DIR: join(home, "locks") }, out: () => {}, err };
}

/** `iris gateway webchat add-user NAME` on `home`: the user's own login token (shown once). */
export async function addWebchatUser(home: string, name: string): Promise<string> {
  let out = "";
  let err = "";
  const code = await webchatAddUser({ ...gatewayIo(home, (s) => (err += s)), out: (s) => (out += s) }, name);
  const token = /login token \(shown once; give it to \w+ only\): (\S+)/.exec(out)?.[1];
  if (code !== 0 || !token) throw new Error(`add-user ${name} failed (${code}): ${err}${out}`);
  return token;
}

/** Starts `iris gateway run` on `home` (cwd: its work folder), errors to `err`, until `stop` is called. */
export function runGateway(
  home: string,
  err: (s: string) => void,
  extra: Pick<RunOptions, "cronTickMs"> = {},
): { stop: () => void; running: Promise<number> } {
  let stop = () => {};
  const until = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const running = gatewayRun({ ...gatewayIo(home, err), until, cwd: join(home, "work"), ...extra });
  return { stop, running };
}

/** config.yaml in `home` (with a `work` folder beside it): the fake as the model, then `lines`. */
export function writeGatewayProfile(home: string, fake: FakeLlm, lines: string[]): void {
  mkdirSync(join(home, "work"), { recursive: true });
  writeFileSync(
    join(home, "config.yaml"),
    [
      "model: {provider: fake, name: fake-model}",
      `providers: {fake: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}`,
      ...lines,
      "",
    ].join("\n"),
  );
}
