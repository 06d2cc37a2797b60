// `iris serve` takes its workspace from config.yaml (SPEC T6): with terminal.backend docker an API
// client's commands run in a container (a real engine: podman system service, testkit/podman.ts),
// never on this machine, with none of the profile's secrets, and the request's container goes
// with its session.
import { type Podman, skipWithoutPodman, startPodman } from "@iris/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, sentBodies, startHarness } from "./helpers.js";

describe.skipIf(skipWithoutPodman())("iris serve on the docker workspace (real podman)", () => {
  let engine: Podman;
  let h: Harness;
  const containers = () =>
    engine.podman(["ps", "-a", "-q", "--filter", "label=iris.profile=default"]).stdout.trim();

  beforeAll(async () => {
    engine = await startPodman();
    h = await startHarness({
      config: [
        "terminal:",
        "  backend: docker",
        "  docker:",
        `    image: ${engine.image}`,
        `    socket: ${engine.socket}`,
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await engine?.close();
  });

  it("an API client's command runs in the container, without the profile's secrets", async () => {
    h.fake.enqueue(
      {
        toolCalls: [
          { name: "terminal", arguments: { command: 'wc -l < /etc/passwd; echo "[$OPENAI_API_KEY]"' } },
        ],
      },
      { text: "counted" },
    );
    const done = await h.client().chat.completions.create({
      model: "iris",
      messages: [{ role: "user", content: "count the users" }],
    });
    expect(done.choices[0]?.message.content).toContain("counted");
    const result = sentBodies(h.fake).at(-1) ?? "";
    // The test image's passwd holds root alone (this machine's holds many); the key stayed home.
    expect(result).toContain("1\\n[]\\n[exit code: 0]");
    expect(result).not.toContain("fake-upstream-key");
    expect(sentBodies(h.fake).at(-2)).toContain(`Workspace: docker ${engine.image}`);
    // The request's session ended, and its container with it.
    expect(containers()).toBe("");
  }, 60_000);
});
