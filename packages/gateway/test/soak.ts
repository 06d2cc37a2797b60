// The IRC soak (issue 19 "How it will be checked"), shared by bench/gateway-irc-soak.ts (10,000
// messages) and a short test: `iris gateway run` (the built bin, as a user runs it) on a real
// ngircd with its flood limits lifted, users who each DM the bot and wait for each answer before
// the next question, the fake LLM server answering instantly, and a SIGKILL and restart of the
// gateway part way through.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { type RecordedRequest, startFakeLlm, tempDir } from "@iris/testkit";
import { type IrcLine, TestIrcClient } from "./irc-client.js";
import { startNgircd } from "./ngircd.js";
import { writeGatewayProfile } from "./profile.js";

const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");
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

export interface SoakResult {
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

interface Gateway {
  child: ChildProcess;
  up: Promise<void>;
}

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
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
  const ircd = await startNgircd([], undefined, { unthrottled: true });
  const dir = tempDir("iris-soak");
  writeGatewayProfile(dir.path, fake, [
    "compression: {enabled: false}",
    "gateway:",
    "  allow_all: true",
    "  busy_policy: queue",
    "  platforms:",
    `    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: ${BOT}, channels: []}`,
  ]);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    IRIS_HOME: dir.path,
    IRIS_LOCK_DIR: join(dir.path, "locks"),
    ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
  };
  const startGateway = (): Gateway => {
    const child = spawn(process.execPath, [IRIS_BIN, "gateway", "run"], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
      cwd: dir.path,
    });
    let err = "";
    const up = new Promise<void>((resolve, reject) => {
      child.stderr?.on("data", (d) => {
        err += d;
        if (err.includes("iris gateway: running")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`gateway exited (${code}): ${err}`)));
    });
    up.catch(() => {});
    return { child, up };
  };
  const rssOf = (pid: number) =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

  let gateway = startGateway();
  const users: TestIrcClient[] = [];
  try {
    await gateway.up;
    users.push(
      ...(await Promise.all(
        Array.from({ length: o.users }, (_, u) => TestIrcClient.connect(ircd.port, `user${u}`)),
      )),
    );
    const sentAt = new Map<string, number>();
    const answers = new Map<string, number>();
    const reportedTokens = new Set<string>();
    const r: SoakResult = {
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
    /** The next PRIVMSG from the bot after the cursor (none is missed while awaiting). */
    const nextFromBot = async (c: TestIrcClient, cursor: { at: number }, ms: number) => {
      for (;;) {
        while (cursor.at < c.lines.length) {
          const l = c.lines[cursor.at++] as IrcLine;
          if (l.command === "PRIVMSG" && l.nick === BOT) return l;
        }
        if (!(await c.waitFor(() => true, ms).catch(() => undefined))) return undefined;
      }
    };
    const every = o.sampleEvery ?? 500;
    const t0 = performance.now();
    const runUser = async (c: TestIrcClient) => {
      const cursor = { at: c.lines.length };
      let mine = 0;
      while (sent < o.messages) {
        await ready;
        if (o.newEvery > 0 && ++mine % o.newEvery === 0) {
          c.say(BOT, "/new");
          for (;;) {
            const l = await nextFromBot(c, cursor, 60_000);
            if (!l || l.text.startsWith("new session") || l.text.includes("was not answered")) break;
          }
        }
        const token = String(sent++);
        const beforeKill = !killed;
        sentAt.set(token, performance.now());
        c.say(BOT, `question #${token}#`);
        if (!killed && sent >= o.killAt) ready = killAndRestart();
        let graceAfterRestart = false;
        let askedAgain = false;
        let idle = 0;
        for (;;) {
          const line = await nextFromBot(c, cursor, 15_000);
          if (!line) {
            // No answer and no notice 15 s after the new process is up (it tells what it read and
            // did not answer as it starts): the killed process never read the question from its
            // socket. Only the user can know; they ask again, once.
            if (beforeKill && killed && !askedAgain) {
              await ready;
              if (!graceAfterRestart) {
                graceAfterRestart = true;
                continue;
              }
              askedAgain = true;
              r.askedAgain++;
              c.say(BOT, `question #${token}#`);
              continue;
            }
            if (++idle < 8) continue; // two minutes of silence: lost
            break;
          }
          if (line.text.includes("was not answered")) {
            r.reported++;
            reportedTokens.add(token);
            break;
          }
          const got = /reply #(\d+)#/.exec(line.text)?.[1];
          if (got === undefined) continue;
          const n = (answers.get(got) ?? 0) + 1;
          answers.set(got, n);
          if (n > 1) {
            r.duplicates++;
            continue;
          }
          r.latenciesMs.push(performance.now() - (sentAt.get(got) ?? 0));
          r.answered++;
          if (r.answered % every === 0) r.rss.push([proc, r.answered, rssOf(gateway.child.pid ?? 0)]);
          if (got === token) break;
        }
      }
    };
    await Promise.all(users.map(runUser));
    r.wallS = (performance.now() - t0) / 1000;
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
    await Promise.all(users.map((u) => u.quit()));
    await ircd.stop();
    await fake.close();
    dir.cleanup();
  }
}
