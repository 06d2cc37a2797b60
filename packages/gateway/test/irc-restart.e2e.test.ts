// A gateway killed mid-turn continues the turn after its restart (SPEC G1, D4), against a real
// ngircd and `iris gateway run` (the built bin) SIGKILLed for real: a question whose model call
// was cut gets its answer from the restarted process, with no "please send it again" and its
// question sent to the model once; a question whose command was running at the kill (its effect
// uncertain) is not continued, and the user is told why, once. A continued answer sends exactly
// the paragraphs not sent before the kill (none twice, none skipped). A graceful SIGTERM gives
// running turns gateway.stop_grace_seconds, then leaves them as a kill would: continued too.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FakeLlm,
  type Ngircd,
  type RecordedRequest,
  type Step,
  skipWithoutNgircd,
  startFakeLlm,
  startNgircd,
  type TempDir,
  TestIrcClient,
  tempDir,
} from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeGatewayProfile } from "./profile.js";

const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");
const BOT = "irisbot";
const skip = skipWithoutNgircd();

type ChatMessage = { role: string; content?: unknown };
const lastUser = (req: RecordedRequest) =>
  JSON.stringify((req.body as { messages: ChatMessage[] }).messages.filter((m) => m.role === "user").at(-1));

describe.skipIf(skip)("gateway restart continues a cut turn (ngircd, SIGKILL)", () => {
  let fake: FakeLlm;
  let ircd: Ngircd;
  let dir: TempDir;
  let gateway: ChildProcess | undefined;
  let stall = true;
  let stallRound2 = true;
  let stallWaves = true;

  const start = async (): Promise<ChildProcess> => {
    const child = spawn(process.execPath, [IRIS_BIN, "gateway", "run"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: dir.path,
        IRIS_HOME: dir.path,
        IRIS_LOCK_DIR: join(dir.path, "locks"),
      },
      stdio: ["ignore", "ignore", "pipe"],
      cwd: join(dir.path, "work"),
    });
    let err = "";
    await new Promise<void>((resolve, reject) => {
      child.stderr?.on("data", (d) => {
        err += d;
        if (err.includes("iris gateway: running")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`gateway exited (${code}): ${err}`)));
    });
    return child;
  };
  const kill = async (child: ChildProcess) => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };

  beforeAll(async () => {
    fake = await startFakeLlm();
    fake.setHandler((req): Step => {
      const said = lastUser(req);
      const sawTool = (req.body as { messages: ChatMessage[] }).messages.some((m) => m.role === "tool");
      if (said.includes("tides")) return stall ? { fault: "stall" } : { text: "Tides follow the moon." };
      if (said.includes("waves"))
        return stallWaves ? { fault: "stall" } : { text: "Waves are raised by the wind." };
      // Two rounds: a paragraph and a command, then (after the kill) the answer in two paragraphs.
      if (said.includes("two rounds")) {
        if (!sawTool)
          return {
            text: "First I look it up.\n\n",
            toolCalls: [{ name: "terminal", arguments: { command: "echo looked" } }],
          };
        return stallRound2 ? { fault: "stall" } : { text: "Found it.\n\nThe answer is 42." };
      }
      if (
        said.includes("slow job") &&
        !(req.body as { messages: ChatMessage[] }).messages.some((m) => m.role === "tool")
      )
        return {
          toolCalls: [
            { name: "terminal", arguments: { command: "touch started.txt && sleep 30 && touch ended.txt" } },
          ],
        };
      return { text: "done" };
    });
    ircd = await startNgircd([], undefined, { unthrottled: true });
    dir = tempDir("iris-gw-restart");
    writeGatewayProfile(dir.path, fake, [
      "approvals: {mode: off}",
      "gateway:",
      "  allow_all: true",
      "  stop_grace_seconds: 1",
      "  platforms:",
      `    irc: {server: 127.0.0.1, port: ${ircd.port}, nick: ${BOT}, channels: []}`,
    ]);
  }, 120_000);

  afterAll(async () => {
    if (gateway && gateway.exitCode === null && gateway.signalCode === null) {
      const exited = new Promise((resolve) => gateway?.once("exit", resolve));
      gateway.kill("SIGTERM");
      await exited;
    }
    await ircd?.stop();
    await fake?.close();
    dir?.cleanup();
  }, 60_000);

  it("answers a question whose model call the kill cut, once, without asking to resend", async () => {
    gateway = await start();
    const ann = await TestIrcClient.connect(ircd.port, "ann");
    try {
      ann.say(BOT, "what about tides?");
      while (!fake.requests.some((r) => lastUser(r).includes("tides")))
        await new Promise((r) => setTimeout(r, 20));
      await kill(gateway);
      stall = false;
      gateway = await start();
      const lines = await ann.waitForText(BOT, (t) => t.some((l) => l.includes("moon")));
      expect(lines.join("\n")).not.toMatch(/not answered|send it again/);
      const asked = fake.requests.filter((r) => lastUser(r).includes("tides"));
      expect(asked).toHaveLength(2);
      // The continued call is the stored turn as it was: the question once, no "(No answer" note.
      const body = JSON.stringify(asked[1]?.body);
      expect(body.split("what about tides?").length - 1).toBe(1);
      expect(body).not.toContain("No answer");
    } finally {
      await ann.quit();
    }
  }, 120_000);

  it("does not continue a turn whose command was running at the kill, and says why", async () => {
    const bob = await TestIrcClient.connect(ircd.port, "bob");
    try {
      gateway ??= await start();
      bob.say(BOT, "run the slow job");
      const work = join(dir.path, "work");
      while (!existsSync(join(work, "started.txt"))) await new Promise((r) => setTimeout(r, 20));
      await kill(gateway);
      const before = fake.requests.length;
      gateway = await start();
      const lines = await bob.waitForText(BOT, (t) => t.some((l) => l.includes("not answered")));
      expect(lines.join("\n")).toMatch(/while terminal ran, and whether it finished is unknown/);
      expect(fake.requests.length).toBe(before);
      expect(existsSync(join(work, "ended.txt"))).toBe(false);
    } finally {
      await bob.quit();
    }
  }, 120_000);

  it("a continued answer sends exactly the paragraphs not sent before the kill", async () => {
    const cy = await TestIrcClient.connect(ircd.port, "cy");
    try {
      gateway ??= await start();
      cy.say(BOT, "answer in two rounds");
      // The first round's paragraph went out, the command ran, the second model call hangs.
      await cy.waitFor((l) => l.nick === BOT && l.text.includes("First I look it up."));
      while (
        !fake.requests.some(
          (r) => lastUser(r).includes("two rounds") && JSON.stringify(r.body).includes('"tool"'),
        )
      )
        await new Promise((r) => setTimeout(r, 20));
      await kill(gateway);
      stallRound2 = false;
      gateway = await start();
      const lines = await cy.waitForText(BOT, (t) => t.some((l) => l.includes("The answer is 42.")));
      const said = lines.join("\n");
      // The continuation's first paragraph is new: its outbox key is not the first round's.
      expect(said).toContain("Found it.");
      expect(said.split("First I look it up.").length - 1).toBe(1);
      expect(said.split("Found it.").length - 1).toBe(1);
      expect(said).not.toMatch(/not answered|send it again/);
    } finally {
      await cy.quit();
    }
  }, 120_000);

  it("a graceful SIGTERM mid-turn: the turn is continued after the restart", async () => {
    const dee = await TestIrcClient.connect(ircd.port, "dee");
    try {
      gateway ??= await start();
      dee.say(BOT, "what about waves?");
      while (!fake.requests.some((r) => lastUser(r).includes("waves")))
        await new Promise((r) => setTimeout(r, 20));
      const stopped = gateway;
      let err = "";
      stopped.stderr?.on("data", (d) => {
        err += d;
      });
      const exited = new Promise<number | null>((resolve) => stopped.once("exit", (code) => resolve(code)));
      stopped.kill("SIGTERM");
      // The model call still hangs after the grace: the process leaves it for the restart and exits 0.
      expect(await exited).toBe(0);
      expect(err).toMatch(/continued after the restart/);
      stallWaves = false;
      gateway = await start();
      const lines = await dee.waitForText(BOT, (t) => t.some((l) => l.includes("raised by the wind")));
      expect(lines.join("\n")).not.toMatch(/not answered|send it again|interrupted/);
      const asked = fake.requests.filter((r) => lastUser(r).includes("waves"));
      expect(asked).toHaveLength(2);
      expect(JSON.stringify(asked[1]?.body).split("what about waves?").length - 1).toBe(1);
    } finally {
      await dee.quit();
    }
  }, 120_000);
});
