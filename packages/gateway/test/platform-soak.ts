// The soak over the chat platforms (Telegram, Discord, Slack), shared by their short kill tests
// and bench/gateway.ts: `iris gateway run` (the built bin, as a user runs it) against a platform
// fake in this process, users who each DM the bot and wait for each answer before the next
// question, the fake LLM server answering at once, and a SIGKILL and restart of the gateway part
// way through. Duplicates are counted as the users see them at the end (messages still there).
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { type RecordedRequest, startFakeLlm, tempDir } from "@iris/testkit";
import { writeGatewayProfile } from "./profile.js";

const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");

/** A user of a platform fake: asks in their DM, and reads what the bot has there. */
export interface SoakUser {
  ask(text: string): void;
  /** The bot's messages in the DM still shown, each with its latest text. */
  botTexts(): { id: string; text: string }[];
}

/** A platform fake set up for a soak. */
export interface SoakPlatform {
  /** The platform's line under `gateway.platforms` in config.yaml. */
  configLine: string;
  /** The profile's .env. */
  env: string;
  users: SoakUser[];
  close(): Promise<void>;
}

export interface PlatformSoakOptions {
  messages: number;
  users: number;
  /** Questions sent before the SIGKILL (0: none). */
  killAt: number;
  /** Resident size samples: every this many answers. */
  sampleEvery?: number;
  /** Each user starts a new conversation (/new) every this many questions (0 or absent: never),
   * as chats do: a conversation's whole history goes with every request, so without it requests
   * grow all run long and the heap with them (a growth that is no leak). */
  newEvery?: number;
}

export interface PlatformSoakResult {
  wallS: number;
  answered: number;
  /** Questions told "not answered" after the restart. */
  reported: number;
  /** Questions the killed process never read (no answer, no notice): asked again by the user. */
  askedAgain: number;
  duplicates: number;
  /** Questions neither answered nor reported. */
  lost: number;
  latenciesMs: number[];
  /** The gateway's RSS: [process 0 or 1, answers so far, bytes]. */
  rss: [number, number, number][];
}

const REPLY = /reply #(\d+)#/;

export async function runPlatformSoak(
  make: (users: number) => Promise<SoakPlatform>,
  o: PlatformSoakOptions,
): Promise<PlatformSoakResult> {
  type ChatMessage = { role: string; content?: unknown };
  const fake = await startFakeLlm();
  fake.setHandler((req: RecordedRequest) => {
    const ms = (req.body as { messages: ChatMessage[] }).messages;
    const last = ms.filter((m) => m.role === "user").at(-1)?.content;
    const token = /#(\d+)#/.exec(typeof last === "string" ? last : JSON.stringify(last))?.[1] ?? "?";
    return { text: `reply #${token}#` };
  });
  // The fake keeps every request; a long run would otherwise measure the fake's heap.
  const trim = setInterval(() => {
    fake.requests.length = 0;
  }, 5000);
  const platform = await make(o.users);
  const dir = tempDir("iris-platform-soak");
  writeGatewayProfile(dir.path, fake, [
    "compression: {enabled: false}",
    "gateway:",
    "  allow_all: true",
    "  busy_policy: queue",
    "  platforms:",
    `    ${platform.configLine}`,
  ]);
  writeFileSync(join(dir.path, ".env"), platform.env);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: dir.path,
    IRIS_HOME: dir.path,
    IRIS_LOCK_DIR: join(dir.path, "locks"),
    ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
  };
  const startGateway = () => {
    const child = spawn(process.execPath, [IRIS_BIN, "gateway", "run"], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
      cwd: join(dir.path, "work"),
    });
    let err = "";
    const up = new Promise<void>((resolve, reject) => {
      child.stderr?.on("data", (d) => {
        err += d;
        if (err.includes("iris gateway: running")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`gateway exited (${code}): ${err.slice(-2000)}`)));
    });
    up.catch(() => {});
    return { child, up };
  };
  const rssOf = (pid: number) =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

  let gateway = startGateway();
  try {
    await gateway.up;
    const sentAt = new Map<string, number>();
    const answers = new Set<string>();
    const reportedTokens = new Set<string>();
    const r: PlatformSoakResult = {
      wallS: 0,
      answered: 0,
      reported: 0,
      askedAgain: 0,
      duplicates: 0,
      lost: 0,
      latenciesMs: [],
      rss: [],
    };
    let sent = 0;
    let killed = false;
    let proc = 0;
    let ready: Promise<void> = Promise.resolve();
    const killAndRestart = async () => {
      killed = true;
      const old = gateway.child;
      const exited = new Promise((resolve) => old.once("exit", resolve));
      old.kill("SIGKILL");
      await exited;
      gateway = startGateway();
      proc = 1;
      await gateway.up;
    };
    /** The next reply or notice in the user's DM not seen before (polled; none is missed). */
    const nextFromBot = async (u: SoakUser, seen: Set<string>, ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        for (const m of u.botTexts()) {
          if (seen.has(m.id)) continue;
          const token = REPLY.exec(m.text)?.[1];
          if (token !== undefined) {
            seen.add(m.id);
            return { token };
          }
          if (m.text.includes("was not answered")) {
            seen.add(m.id);
            return { reported: true };
          }
        }
        await new Promise((res) => setTimeout(res, 20));
      }
      return undefined;
    };
    /** Sends /new and waits for the gateway's reply to it (any new message that is no answer). */
    const newConversation = async (u: SoakUser, seen: Set<string>) => {
      u.ask("/new");
      const end = Date.now() + 30_000;
      while (Date.now() < end) {
        const m = u
          .botTexts()
          .find((t) => !seen.has(t.id) && !REPLY.test(t.text) && !t.text.includes("was not answered"));
        if (m) return void seen.add(m.id);
        await new Promise((res) => setTimeout(res, 20));
      }
      throw new Error("no reply to /new in 30 s");
    };
    const every = o.sampleEvery ?? 500;
    const t0 = performance.now();
    const runUser = async (u: SoakUser) => {
      const seen = new Set<string>();
      let asked = 0;
      while (sent < o.messages) {
        await ready;
        if (o.newEvery && asked > 0 && asked % o.newEvery === 0) {
          await newConversation(u, seen);
          if (sent >= o.messages) break;
        }
        asked++;
        const token = String(sent++);
        const beforeKill = !killed;
        sentAt.set(token, performance.now());
        u.ask(`question #${token}#`);
        if (o.killAt > 0 && !killed && sent >= o.killAt) ready = killAndRestart();
        let graceAfterRestart = false;
        let askedAgain = false;
        let idle = 0;
        for (;;) {
          const got = await nextFromBot(u, seen, 15_000);
          if (!got) {
            // No answer and no notice 15 s after the new process is up: the killed process never
            // took the question from the platform. Only the user can know; they ask again, once.
            if (beforeKill && killed && !askedAgain) {
              await ready;
              if (!graceAfterRestart) {
                graceAfterRestart = true;
                continue;
              }
              askedAgain = true;
              r.askedAgain++;
              u.ask(`question #${token}#`);
              continue;
            }
            if (++idle < 8) continue; // two minutes of silence: lost
            break;
          }
          if ("reported" in got) {
            r.reported++;
            reportedTokens.add(token);
            break;
          }
          if (!answers.has(got.token)) {
            answers.add(got.token);
            r.latenciesMs.push(performance.now() - (sentAt.get(got.token) ?? 0));
            r.answered++;
            if (r.answered % every === 0) r.rss.push([proc, r.answered, rssOf(gateway.child.pid ?? 0)]);
          }
          if (got.token === token) break;
        }
      }
    };
    await Promise.all(platform.users.map(runUser));
    r.wallS = (performance.now() - t0) / 1000;
    // Give a late duplicate time to show, then count what the users see.
    await new Promise((res) => setTimeout(res, 1500));
    const shown = new Map<string, number>();
    for (const u of platform.users)
      for (const m of u.botTexts()) {
        const token = REPLY.exec(m.text)?.[1];
        if (token !== undefined) shown.set(token, (shown.get(token) ?? 0) + 1);
      }
    for (const n of shown.values()) r.duplicates += n - 1;
    for (let t = 0; t < o.messages; t++)
      if (!answers.has(String(t)) && !reportedTokens.has(String(t))) r.lost++;
    return r;
  } finally {
    clearInterval(trim);
    const child = gateway.child;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await platform.close();
    await fake.close();
    dir.cleanup();
  }
}
