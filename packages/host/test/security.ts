// Shared set-up of the security e2e tests: a process on a temp IRIS_HOME whose .env holds a key,
// a fake user home (HOME) so `~` never means this machine's, a session in a work folder, a fake
// model that makes the tool call the prompt names, and nobody to approve: every question is
// recorded and answered "deny".
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm, RecordedRequest, Step, TempDir } from "@iris/testkit";
import { tempDir } from "@iris/testkit";
import type { IrisProcess } from "../src/app/process.js";
import type { Session } from "../src/app/session.js";
import { openProcess, startSession, textOf } from "./process.js";

export const SECRET = "sk-test-SECRET-0123456789abcdef";

export interface Asked {
  key: string;
  keys: string[];
  reason: string;
}

export interface SecurityWorld {
  fake: FakeLlm;
  dir: TempDir;
  home: TempDir;
  iris: IrisProcess;
  work: string;
  close(): Promise<void>;
}

type ChatMessage = { role: string; content?: unknown };

/** The user's text is `CALL <json>`: the model calls that tool once, then repeats its result. */
function reply(req: RecordedRequest): Step {
  const messages = (req.body as { messages: ChatMessage[] }).messages;
  const lastUser = messages.map((m) => m.role).lastIndexOf("user");
  const after = messages.slice(lastUser + 1);
  if (after.length === 0) {
    const call = JSON.parse(textOf(messages[lastUser]).replace(/^CALL /, "")) as {
      name: string;
      arguments: unknown;
    };
    return { toolCalls: [call] };
  }
  return { text: `RESULT ${textOf(after.at(-1))}` };
}

export const call = (name: string, args: unknown) => `CALL ${JSON.stringify({ name, arguments: args })}`;

export async function openWorld(prefix: string, config?: string): Promise<SecurityWorld> {
  const home = tempDir(`${prefix}-home`);
  const savedHome = process.env.HOME;
  process.env.HOME = home.path;
  const { fake, dir, iris, close } = await openProcess(prefix, config);
  fake.setHandler(reply);
  writeFileSync(join(dir.path, ".env"), `OPENAI_API_KEY=${SECRET}\n`);
  mkdirSync(join(home.path, ".ssh"), { recursive: true });
  writeFileSync(join(home.path, ".ssh", "id_ed25519"), `-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRET}\n`);
  writeFileSync(join(home.path, ".bashrc"), "# rc\n");
  const work = join(dir.path, "work");
  mkdirSync(work, { recursive: true });
  return {
    fake,
    dir,
    home,
    iris,
    work,
    close: async () => {
      await close();
      home.cleanup();
      process.env.HOME = savedHome;
    },
  };
}

/** A session in the work folder whose questions nobody approves (each is recorded, then denied). */
export async function unattended(world: SecurityWorld): Promise<{ session: Session; asked: Asked[] }> {
  const session = await startSession(world.iris, world.fake, world.work);
  const asked: Asked[] = [];
  session.subscribe((e) => {
    if (e.name !== "approval_requested") return;
    const r = e.payload.request;
    asked.push({ key: r.patternKey, keys: r.patternKeys ?? [r.patternKey], reason: r.reason });
    session.answer(e.payload.requestId, "deny");
  });
  return { session, asked };
}

/** No request the model received holds the secret. */
export function modelNeverSaw(fake: FakeLlm, secret = SECRET): boolean {
  return fake.requests.every((r) => !r.rawBody.toString("utf8").includes(secret));
}
