import { createApprovalPolicy, defineTool, selectMenu, ToolRegistry } from "@iris/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentEvents } from "../events.js";
import { RegistryToolBox } from "./registry-toolbox.js";

describe("questions end with their turn", () => {
  it("a pending approval is withdrawn when the turn is aborted: denied, and the front end is told", async () => {
    const registry = new ToolRegistry({ logger: { warn: () => {} } });
    const ran: string[] = [];
    registry.register(
      defineTool({
        name: "terminal",
        toolset: "terminal",
        description: "Runs a command.",
        parameters: z.object({ command: z.string() }),
        effect: "mutate",
        approvalSubject: (a) => a.command,
        execute: async (a) => {
          ran.push(a.command);
          return "ok";
        },
      }),
    );
    const menu = await selectMenu(registry, { platform: "t", config: { toolsets: { t: ["terminal"] } } });
    let seen: AbortSignal | undefined;
    const controller = new AbortController();
    const box = new RegistryToolBox({
      registry,
      menu,
      policy: createApprovalPolicy({ mode: "manual", home: "/home/u" }),
      // Nobody ever answers.
      frontEnd: {
        approve: (_req, signal) => {
          seen = signal;
          controller.abort();
          return new Promise(() => {});
        },
      },
      events: new AgentEvents(),
    });
    const result = await box.run(
      {
        type: "toolCall",
        callId: "c1",
        name: "terminal",
        argumentsJson: JSON.stringify({ command: "rm -rf build/" }),
      },
      {
        signal: controller.signal,
        taskId: "t",
        sessionId: "s",
        cwd: "/",
        assistantNodeId: "n",
        stepId: 1,
        progress: () => {},
      },
    );
    expect(result.isError).toBe(true);
    expect(ran).toEqual([]);
    expect(seen?.aborted).toBe(true);
  });
});
