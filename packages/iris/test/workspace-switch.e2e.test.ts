// `/workspace` in the chat, on a real pseudo-terminal with a real engine (podman system service):
// it shows the session's workspace and the configured ones, moves this session to docker (the
// model's next command runs in the container), back to local, and an engine that is gone leaves
// the session where it was with the socket named.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, type Podman, skipWithoutPodman, startPodman } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeHome, routeArgs, type TempHome } from "./helpers.js";
import { trackedPtys } from "./pty.js";

describe.skipIf(skipWithoutPodman())("/workspace switches this session's backend", () => {
  let engine: Podman;
  let fake: FakeLlm;
  let home: TempHome;
  let work: string;
  let close: () => Promise<void>;
  const ptys = trackedPtys();

  beforeAll(async () => {
    engine = await startPodman();
    ({ fake, home, work, close } = await fakeHome(true));
    writeFileSync(
      join(home.home, "config.yaml"),
      [
        "approvals:",
        "  mode: off",
        "terminal:",
        "  backend: local",
        "  docker:",
        `    image: ${engine.image}`,
        `    socket: ${engine.socket}`,
        "",
      ].join("\n"),
    );
  }, 60_000);
  afterAll(async () => {
    ptys.killOpen();
    await close?.();
    await engine?.close();
  });

  it("shows, switches to docker and back, and refuses an engine that is gone", async () => {
    fake.enqueue(
      { text: "hello" },
      { toolCalls: [{ name: "terminal", arguments: { command: "wc -l < /etc/passwd" } }] },
      { text: "looked" },
    );
    const t = ptys.start([...routeArgs(fake.baseUrl, "chat_completions")], { IRIS_HOME: home.home }, work);
    await t.waitFor("› ");
    t.type("hi\r");
    await t.waitFor(/hello[\s\S]*› /);
    const systemOf = (i: number) =>
      String((fake.requests[i]?.body as { messages?: { content: unknown }[] })?.messages?.[0]?.content);
    expect(systemOf(0)).not.toContain("docker");
    t.type("/workspace\r");
    await t.waitFor("configured: local, docker (profile default: local)");
    t.type("/workspace docker\r");
    await t.waitFor(`this session's tools now run on docker ${engine.image}`);
    t.type("/context\r");
    await t.waitFor(/workspace\s+docker localhost\/iris-test:1 \(network none, session container\) via/);
    t.type("look\r");
    await t.waitFor(/looked[\s\S]*› /);
    // The frozen prompt follows the switch: it names the container, not the config's local.
    expect(systemOf(1)).toContain(`docker ${engine.image}`);
    const result = JSON.stringify(fake.requests.at(-1)?.body);
    // The test image's passwd (root alone), not this machine's.
    expect(result).toContain('"1\\n[exit code: 0]');
    expect(engine.podman(["ps", "-q"]).stdout.trim()).not.toBe("");
    t.type("/workspace local\r");
    await t.waitFor("this session's tools now run on local (this machine)");
    // The container went with the docker workspace.
    expect(engine.podman(["ps", "-a", "-q"]).stdout.trim()).toBe("");
    await engine.stop();
    t.type("/workspace docker\r");
    await t.waitFor(`the docker workspace (socket ${engine.socket}) is unavailable`);
    await t.waitFor("still on local (this machine)");
    t.type("/exit\r");
    expect(await t.exited).toBe(0);
  }, 90_000);
});
