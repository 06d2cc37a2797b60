// Runs a built-in web tool through the real dispatcher with a tool environment, as the agent does.

import { createApprovalPolicy } from "../src/approval/policy.js";
import { dispatchToolCall } from "../src/dispatch/dispatch.js";
import { type ToolEnvironmentOptions, toolEnvironment } from "../src/environment.js";
import { loadBuiltinTools } from "../src/registry/load-builtin.js";
import { ToolRegistry } from "../src/registry/registry.js";
import { localWorkspace } from "../src/workspace/local.js";
import type { Workspace } from "../src/workspace/types.js";

export async function webTools(o: ToolEnvironmentOptions, workspace: Workspace = localWorkspace()) {
  const environment = toolEnvironment(o);
  const registry = new ToolRegistry({ environment, logger: { warn: () => {} } });
  await loadBuiltinTools(registry);
  const policy = createApprovalPolicy({ mode: "off" });
  const call = async (name: string, args: unknown) =>
    dispatchToolCall(
      registry,
      { name, argumentsJson: JSON.stringify(args) },
      {
        signal: new AbortController().signal,
        taskId: "t",
        cwd: process.cwd(),
        progress: () => {},
        workspace,
        approve: async () => "deny",
      },
      policy,
    );
  return { registry, call, environment };
}
