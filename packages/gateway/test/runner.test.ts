// The runner's promises (SPEC G4, H2, U3) with the real store, process and agent against the fake
// LLM server: dedupe and the outbox hold across a restart, what a crash left unanswered is
// reported once, a busy chat queues or interrupts, and speakers are merged with their names.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { IrisProcess, loadProfile } from "@iris/host";
import { storeOf } from "@iris/host/testing";
import { getLogger } from "@iris/llm";
import {
  type FakeLlm,
  type RecordedRequest,
  type Step,
  startFakeLlm,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Deliverer } from "../src/pipeline/deliver.js";
import { Gateway, type GatewayOptions } from "../src/runner.js";
import { openGatewayTables } from "../src/state/index.js";
import { MemoryAdapter, message } from "./memory-adapter.js";

let fake: FakeLlm;
let dir: TempDir;
const open: { iris: IrisProcess; gateway: Gateway }[] = [];

type ChatMessage = { role: string; content?: unknown };
const lastUser = (req: RecordedRequest | undefined) => {
  const ms = (req?.body as { messages: ChatMessage[] } | undefined)?.messages ?? [];
  const m = ms.filter((x) => x.role === "user").at(-1);
  if (typeof m?.content === "string") return m.content;
  // Consecutive user messages are sent as one message of text parts.
  return ((m?.content as { text?: string }[] | undefined) ?? []).map((p) => p.text ?? "").join("|");
};

beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler((req) => ({ text: `echo: ${lastUser(req)}` }));
  dir = tempDir("iris-gw-runner");
});
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.gateway.stop();
    await o.iris.close();
  }
  await fake.close();
  dir.cleanup();
});

async function startGateway(
  adapter: MemoryAdapter,
  gatewayYaml = "  allow_all: true\n",
  extra: Partial<GatewayOptions> = {},
) {
  writeFileSync(
    join(dir.path, "config.yaml"),
    `model: {provider: fake, name: fake-model}\nproviders: {fake: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}\ngateway:\n${gatewayYaml}`,
  );
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  const iris = await IrisProcess.open({ profile, platform: "gateway", env: {} });
  const gateway = new Gateway({
    iris,
    tables: await openGatewayTables(iris),
    adapters: [adapter],
    config: profile.config.gateway,
    cwd: dir.path,
    logger: getLogger({ component: "test" }),
    ...extra,
  });
  await gateway.start();
  const entry = { iris, gateway };
  open.push(entry);
  return {
    gateway,
    iris,
    async crash() {
      // What a SIGKILL leaves: the store as it is; nothing settled.
      open.splice(open.indexOf(entry), 1);
      await gateway.stop();
      await iris.close();
    },
  };
}

describe("exactly once", () => {
  it("answers a redelivered platform message once, also after a restart", async () => {
    const adapter = new MemoryAdapter();
    const first = await startGateway(adapter);
    const m = message({ text: "hello" });
    expect(await first.gateway.handle(m)).toBe("queued");
    expect(await first.gateway.handle(m)).toBe("duplicate");
    await first.gateway.settled();
    await first.crash();
    const second = await startGateway(adapter);
    expect(await second.gateway.handle(m)).toBe("duplicate");
    await second.gateway.settled();
    expect(adapter.textsTo("ann")).toEqual(["echo: hello"]);
    expect(fake.requests).toHaveLength(1);
  });

  it("never sends a recorded reply twice: retries, a second attempt, a restart", async () => {
    const adapter = new MemoryAdapter();
    const { gateway } = await startGateway(adapter);
    const state = gateway.state;
    const deliverer = new Deliverer(state, adapter, getLogger(), async () => {});
    const to = { platform: "mem", chatId: "ann" };
    adapter.failNext = 2; // two failed sends before the platform takes it
    await deliverer.deliver("mem:x:reply", to, "one reply");
    await deliverer.deliver("mem:x:reply", to, "one reply"); // e.g. after a fallback
    expect(adapter.textsTo("ann")).toEqual(["one reply"]);
  });

  it("a crash between record and send: not resent where sends are not idempotent, resent once where they are", async () => {
    for (const idempotent of [false, true]) {
      const adapter = new MemoryAdapter(idempotent);
      const first = await startGateway(adapter);
      const state = first.gateway.state;
      const key = `mem:crash-${idempotent}#0`;
      await state.recordOutbound({
        logicalKey: key,
        platform: "mem",
        chatId: "ann",
        threadId: null,
        text: "half",
      });
      await first.crash();
      await startGateway(adapter).then((g) => g.crash());
      await startGateway(adapter);
      expect(adapter.textsTo("ann")).toEqual(idempotent ? ["half"] : []);
    }
  });

  it("a crash before the hand-over to the platform: the part is sent once on restart; after it, never again", async () => {
    const adapter = new MemoryAdapter();
    adapter.reportsHandOver = true;
    const first = await startGateway(adapter);
    const state = first.gateway.state;
    const part = (k: string, text: string) => ({
      logicalKey: k,
      platform: "mem",
      chatId: "ann",
      threadId: null,
      text,
    });
    await state.recordOutbound(part("mem:queued#0", "still in line")); // waited in the chat's queue
    await state.recordOutbound(part("mem:handed#0", "on the wire"));
    await state.markOutboundHanded("mem:handed#0"); // its request had left: the platform may have it
    await first.crash();
    await startGateway(adapter).then((g) => g.crash());
    const after = (await startGateway(adapter)).gateway.state;
    expect(adapter.textsTo("ann")).toEqual(["still in line"]);
    expect((await after.outbound("mem:handed#0"))?.state).toBe("uncertain");
    expect((await after.outbound("mem:queued#0"))?.state).toBe("sent");
  });

  it("reports a message a crash left unanswered, once", async () => {
    const adapter = new MemoryAdapter();
    const first = await startGateway(adapter);
    const state = first.gateway.state;
    await state.claimInbound({ platform: "mem", messageId: "lost1", chatKey: "mem:dm:ann", chatId: "ann" });
    await first.crash();
    await startGateway(adapter).then((g) => g.crash());
    await startGateway(adapter);
    const notices = adapter.textsTo("ann");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/not answered: the gateway restarted/);
  });

  /** What a kill during a model call leaves: the message claimed, its turn stored up to it. */
  async function cutTurn(adapter: MemoryAdapter, text: string, continuedOnce = false) {
    const first = await startGateway(adapter);
    const state = first.gateway.state;
    await state.claimInbound({ platform: "mem", messageId: "cut1", chatKey: "mem:dm:ann", chatId: "ann" });
    const session = first.iris.openSession({ source: "gateway:mem", cwd: dir.path });
    const row = await session.startSession();
    await storeOf(first.iris).appendNode(row.id, {
      kind: "message",
      message: { role: "user", content: text },
    });
    await state.setChatSession("mem:dm:ann", row.id);
    // A restart that claimed its one continuation and was killed during it.
    if (continuedOnce)
      await state.claimInbound({
        platform: "mem",
        messageId: "cut1#continue",
        chatKey: "mem:dm:ann",
        chatId: "ann",
      });
    await session.close("idle");
    await first.crash();
  }

  it("continues a turn a crash cut, once, and answers it without a notice", async () => {
    const adapter = new MemoryAdapter();
    await cutTurn(adapter, "cut question");
    const second = await startGateway(adapter);
    await second.gateway.settled();
    expect(adapter.textsTo("ann")).toEqual(["echo: cut question"]);
    expect(fake.requests).toHaveLength(1);
    expect(JSON.stringify(fake.requests[0]?.body)).not.toContain("No answer");
    await second.crash();
    await startGateway(adapter).then((g) => g.gateway.settled());
    expect(adapter.textsTo("ann")).toHaveLength(1);
  });

  it("a crash while the turn was being continued is reported, never continued twice", async () => {
    const adapter = new MemoryAdapter();
    await cutTurn(adapter, "cut question", true);
    const second = await startGateway(adapter);
    await second.gateway.settled();
    const notices = adapter.textsTo("ann");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/not answered: the gateway restarted again while it was being continued/);
    expect(fake.requests).toHaveLength(0);
  });
});

/** A handler that holds the first request until released. */
function holdFirst(): { release: () => void; started: Promise<void> } {
  let release = () => {};
  let started = () => {};
  const startedP = new Promise<void>((r) => {
    started = r;
  });
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let first = true;
  fake.setHandler(async (req): Promise<Step> => {
    if (first) {
      first = false;
      started();
      await gate;
    }
    return { text: `echo: ${lastUser(req)}` };
  });
  return { release, started: startedP };
}

describe("busy chats and many speakers", () => {
  const group = (userId: string, text: string) =>
    message({ chatType: "group", chatId: "#c", userId, userName: userId, text: `bot: ${text}` });

  it("queue: messages that arrive during a turn become one merged turn with speaker names", async () => {
    const adapter = new MemoryAdapter();
    const { gateway } = await startGateway(adapter, "  allow_all: true\n  busy_policy: queue\n");
    const held = holdFirst();
    await gateway.handle(group("ann", "first"));
    await held.started;
    await gateway.handle(group("bob", "second"));
    await gateway.handle(group("cy", "third"));
    held.release();
    await gateway.settled();
    expect(fake.requests).toHaveLength(2);
    expect(lastUser(fake.requests[1])).toBe("[bob] second\n[cy] third");
    expect(adapter.textsTo("#c")).toEqual(["echo: [ann] first", "echo: [bob] second\n[cy] third"]);
  });

  it("interrupt: a new message stops the running turn and is answered next, once", async () => {
    const adapter = new MemoryAdapter();
    const { gateway } = await startGateway(adapter, "  allow_all: true\n  busy_policy: interrupt\n");
    const held = holdFirst();
    const a = group("ann", "slow question");
    const b = group("bob", "never mind, this instead");
    await gateway.handle(a);
    await held.started;
    await gateway.handle(b);
    await gateway.settled();
    held.release();
    // One reply, to a model call that saw both messages (the interrupted one stays in history).
    const replies = adapter.textsTo("#c");
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain("[bob] never mind, this instead");
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("[ann] slow question");
    // Both messages are settled: neither is reported as lost after a restart.
    expect(await gateway.state.unansweredInbound("mem")).toEqual([]);
  });
});

describe("steer", () => {
  const group = (userId: string, text: string) =>
    message({ chatType: "group", chatId: "#s", userId, userName: userId, text: `bot: ${text}` });

  it("a message injected into a turn that ends without another round still gets its answer", async () => {
    const adapter = new MemoryAdapter();
    const { gateway } = await startGateway(adapter, "  allow_all: true\n  busy_policy: steer\n");
    const held = holdFirst();
    await gateway.handle(group("ann", "first"));
    await held.started;
    await gateway.handle(group("bob", "also this"));
    held.release();
    await gateway.settled();
    const texts = adapter.textsTo("#s");
    expect(texts[0]).toBe("echo: [ann] first");
    expect(texts.at(-1)).toContain("[bob] also this");
    expect(await gateway.state.unansweredInbound("mem")).toEqual([]);
  });
});

describe("authorisation and commands", () => {
  it("ignores strangers in groups, gives DM strangers one code, and runs chat commands", async () => {
    const adapter = new MemoryAdapter();
    const { gateway } = await startGateway(adapter, "  allow_all: false\n");
    expect(await gateway.handle(message({ chatType: "group", chatId: "#c", text: "bot: hi" }))).toBe(
      "refused",
    );
    expect(await gateway.handle(message({ userId: "eve", userName: "eve", chatId: "eve" }))).toBe("refused");
    expect(await gateway.handle(message({ userId: "eve", userName: "eve", chatId: "eve" }))).toBe("refused");
    const [code, reminder] = adapter.textsTo("eve");
    expect(code).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(reminder).toMatch(/still waiting/);
    expect(adapter.textsTo("#c")).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it("/help lists the shared commands; /status and /usage answer without the model", async () => {
    const adapter = new MemoryAdapter();
    const { gateway } = await startGateway(adapter);
    const answers: string[] = [];
    for (const t of ["/help", "/status", "/usage"]) {
      const before = adapter.sent.length;
      expect(await gateway.handle(message({ text: t }))).toBe("command");
      answers.push(
        adapter.sent
          .slice(before)
          .map((s) => s.text)
          .join(""),
      );
    }
    const [help, status, usage] = answers;
    for (const c of [
      "/new",
      "/reset",
      "/model",
      "/stop",
      "/status",
      "/usage",
      "/compress",
      "/approve",
      "/deny",
      "/help",
    ])
      expect(help).toContain(c);
    expect(status).toMatch(/fake\/fake-model · idle/);
    expect(usage).toMatch(/^0 calls/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("questions in chat", () => {
  type Msg = { role: string; content?: unknown };
  /** The model asks (a tool call) on the first message, repeats the tool's result, then echoes. */
  function asking(call: { name: string; arguments: unknown }) {
    let asked = false;
    fake.setHandler((req): Step => {
      const ms = (req.body as { messages: Msg[] }).messages;
      const last = ms[ms.length - 1];
      if (last?.role === "tool") return { text: `result: ${String(last.content).slice(0, 60)}` };
      if (asked) return { text: `echo: ${lastUser(req)}` };
      asked = true;
      return { toolCalls: [call] };
    });
  }
  const group = (userId: string, text: string) =>
    message({ chatType: "group", chatId: "#q", userId, userName: userId, text: `bot: ${text}` });

  it("a clarify question is answered by the asker's next message", async () => {
    const adapter = new MemoryAdapter();
    const { gateway } = await startGateway(adapter, "  allow_all: true\n  busy_policy: queue\n");
    asking({ name: "clarify", arguments: { question: "Which colour?", choices: ["red", "blue"] } });
    await gateway.handle(group("ann", "paint it"));
    await until(() => adapter.textsTo("#q").some((t) => t.startsWith("Question: Which colour?")));
    expect(await gateway.handle(group("bob", "green!"))).not.toBe("answer"); // not the asker
    expect(await gateway.handle(group("ann", "blue"))).toBe("answer");
    await gateway.settled();
    expect(adapter.textsTo("#q").find((t) => t.startsWith("result:"))).toContain("blue");
    // Bob's message waited for the turn and was answered after it.
    expect(adapter.textsTo("#q").at(-1)).toContain("[bob] green!");
  });

  it("an approval is answered only by the user whose message asked for it", async () => {
    const adapter = new MemoryAdapter();
    const { gateway } = await startGateway(adapter);
    asking({ name: "terminal", arguments: { command: "rm -rf ./nothing-here" } });
    await gateway.handle(group("ann", "clean up"));
    await until(() => adapter.textsTo("#q").some((t) => t.startsWith("Approval needed")));
    await gateway.handle(group("bob", "/approve"));
    expect(adapter.textsTo("#q")).toContain("only the person who asked may answer this approval");
    await gateway.handle(group("ann", "/deny"));
    await gateway.settled();
    const texts = adapter.textsTo("#q");
    expect(texts).toContain("denied");
    expect(texts.find((t) => t.startsWith("result:"))).toMatch(/denied|not run|refused/i);
  });

  it("every chat's approval is shown, though each session numbers its requests from 1", async () => {
    const adapter = new MemoryAdapter();
    const { gateway } = await startGateway(adapter);
    fake.setHandler((req): Step => {
      const ms = (req.body as { messages: Msg[] }).messages;
      if (ms.at(-1)?.role === "tool") return { text: "result" };
      return { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf ./nothing-here" } }] };
    });
    await gateway.handle(message({ chatId: "ann", userId: "ann", text: "clean up" }));
    await gateway.handle(message({ chatId: "bob", userId: "bob", userName: "bob", text: "clean up" }));
    const asked = (chat: string) => adapter.textsTo(chat).some((t) => t.startsWith("Approval needed"));
    await until(() => asked("ann") && asked("bob"));
    await gateway.handle(message({ chatId: "ann", userId: "ann", text: "/deny" }));
    await gateway.handle(message({ chatId: "bob", userId: "bob", userName: "bob", text: "/deny" }));
    await gateway.settled();
  });
});

describe("bounded tables", () => {
  it("drops answered dedupe rows past the retention while it runs, not only at start", async () => {
    const adapter = new MemoryAdapter();
    const { gateway } = await startGateway(adapter, undefined, { pruneEveryMs: 20 });
    const row = (messageId: string) => ({ platform: "memory", messageId, chatKey: "k", chatId: "c" });
    // Recorded after start: only a prune during the run can remove it.
    expect(await gateway.state.claimInbound(row("old"), Date.now() - 8 * 24 * 3600_000)).toBe(true);
    await gateway.state.finishInbound("memory", "old");
    expect(await gateway.state.claimInbound(row("recent"))).toBe(true);
    await gateway.state.finishInbound("memory", "recent");
    // Claimable again once forgotten; the recent one is still a duplicate.
    await until(async () => await gateway.state.claimInbound(row("old")));
    expect(await gateway.state.claimInbound(row("recent"))).toBe(false);
  });
});

async function until(test: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await test())) await new Promise((r) => setTimeout(r, 10));
}

describe("platform rules (from its plugin)", () => {
  it("lets in the platform's allowed users, pairs the rest, and puts its formatting hint in the prompt", async () => {
    const adapter = new MemoryAdapter();
    const rules = {
      mem: { allowedUsers: ["ann"], sendTargets: [], formattingHint: "Plain text only, please." },
    };
    const { gateway } = await startGateway(adapter, "  allow_all: false\n", { rules });
    expect(await gateway.handle(message({ text: "hello" }))).toBe("queued");
    await gateway.settled();
    expect(adapter.textsTo("ann")).toEqual(["echo: hello"]);
    const system = (fake.requests[0]?.body as { messages: ChatMessage[] } | undefined)?.messages[0];
    expect(system?.role).toBe("system");
    expect(JSON.stringify(system?.content)).toContain("Plain text only, please.");
    expect(await gateway.handle(message({ chatId: "bob", userId: "bob", userName: "bob" }))).toBe("refused");
    expect(adapter.textsTo("bob")[0]).toMatch(/pairing code/);
  });
});
describe("typing indicator", () => {
  it("shows the platform's typing indicator from the turn's start, renewed, until the reply", async () => {
    const adapter = new MemoryAdapter();
    Object.assign(adapter.limits, { typingRepeatMs: 10 });
    const typed: string[] = [];
    adapter.typing = (to) => void typed.push(to.chatId);
    const { gateway } = await startGateway(adapter);
    const held = holdFirst();
    await gateway.handle(message({ text: "slow one" }));
    await held.started;
    // Before any token: shown at once and renewed while the model says nothing.
    while (typed.length < 3) await new Promise((r) => setTimeout(r, 5));
    expect(adapter.textsTo("ann")).toEqual([]);
    held.release();
    await gateway.settled();
    expect(adapter.textsTo("ann")).toEqual(["echo: slow one"]);
    const after = typed.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(typed.length).toBe(after);
    expect(new Set(typed)).toEqual(new Set(["ann"]));
  });
});

describe("platform health", () => {
  it("a platform whose sends fail is degraded with the error, and connected again after a send", async () => {
    const adapter = new MemoryAdapter();
    const seen: [string, string, string | undefined][] = [];
    const { gateway } = await startGateway(adapter, "  allow_all: true\n", {
      health: (platform, state, error) => void seen.push([platform, state, error]),
    });
    adapter.failNext = 3; // every attempt of the reply fails
    await gateway.handle(message({ text: "first" }));
    await gateway.settled();
    expect(seen).toEqual([["mem", "degraded", "connection reset"]]);
    await gateway.handle(message({ text: "second" }));
    await gateway.settled();
    expect(seen.at(-1)).toEqual(["mem", "connected", undefined]);
    expect(seen).toHaveLength(2);
  }, 30_000);
});
