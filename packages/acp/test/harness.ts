// An in-process editor for the ACP agent: the SDK's own client connected straight to Iris's agent
// app (no transport), over a real IrisProcess whose profile points at testkit's fake LLM server.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type {
  ClientCapabilities,
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionNotification,
} from "@agentclientprotocol/sdk/unstable";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { IrisProcess, loadProfile } from "@iris/host";
import type { FakeLlm, TempDir } from "@iris/testkit";
import type { ToolDefinition } from "@iris/tools";
import { createAcpAgent } from "../src/agent-app.js";

export interface EditorOptions {
  capabilities?: ClientCapabilities;
  /** Answers a permission request (default: allow once). */
  permission?: (
    req: RequestPermissionRequest,
    signal: AbortSignal,
  ) => Promise<RequestPermissionResponse> | RequestPermissionResponse;
  /** The editor's buffers: fs/read_text_file and fs/write_text_file go here. */
  buffers?: Map<string, string>;
  /** Answers elicitation/create (the clarify tool's form); offer `elicitation.form` to use it. */
  elicit?: (req: CreateElicitationRequest) => CreateElicitationResponse;
  /** Extra config.yaml lines. */
  config?: string;
  /** The whole config.yaml instead of the fake's custom route plus `config`. */
  configText?: string;
  /** Extra environment (provider keys). */
  env?: Record<string, string>;
  /** Tools besides the built-ins (ProcessOptions.extraTools). */
  extraTools?: ToolDefinition[];
}

export interface Editor {
  ctx: acp.ClientContext;
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  work: string;
  iris: Promise<IrisProcess>;
  /** Runs `op` connected; closes the process afterwards. */
  run<T>(op: (ctx: acp.ClientContext) => Promise<T>): Promise<T>;
}

export function configFor(fake: FakeLlm, extra = ""): string {
  return `model: {provider: custom, name: fake-model}\nproviders: {custom: {base_url: '${fake.baseUrl}'}}\n${extra}`;
}

export function editor(fake: FakeLlm, dir: TempDir, opts: EditorOptions = {}): Editor {
  const home = join(dir.path, "home");
  const work = join(dir.path, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(home, "config.yaml"), opts.configText ?? configFor(fake, opts.config));
  const env = { IRIS_HOME: home, ...opts.env };
  const profile = loadProfile({ env, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  const iris = IrisProcess.open({
    profile,
    env,
    platform: "acp",
    ...(opts.extraTools ? { extraTools: opts.extraTools } : {}),
  });
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const agentApp = createAcpAgent({ process: () => iris, vision: false, version: "test", log: () => {} }).app;
  const client = acp
    .client({ name: "test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params, signal }) => {
      permissions.push(params);
      return opts.permission
        ? await opts.permission(params, signal)
        : { outcome: { outcome: "selected", optionId: "allow_once" } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      const text = opts.buffers?.get(params.path);
      if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
      return { content: text };
    })
    .onRequest(acp.methods.client.elicitation.create, ({ params }) =>
      opts.elicit ? opts.elicit(params) : { action: "decline" },
    )
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      opts.buffers?.set(params.path, params.content);
      return {};
    });
  const result: Editor = {
    ctx: undefined as unknown as acp.ClientContext,
    updates,
    permissions,
    work,
    iris,
    async run(op) {
      try {
        return await client.connectWith(agentApp, async (ctx) => {
          result.ctx = ctx;
          await ctx.request(acp.methods.agent.initialize, {
            protocolVersion: acp.PROTOCOL_VERSION,
            clientCapabilities: opts.capabilities ?? {
              fs: { readTextFile: false, writeTextFile: false },
              terminal: false,
            },
          });
          return await op(ctx);
        });
      } finally {
        await (await iris).close();
      }
    },
  };
  return result;
}

/** The updates of one session, by kind. */
export function ofKind<K extends string>(updates: SessionNotification[], kind: K) {
  return updates
    .map((n) => n.update)
    .filter(
      (u): u is Extract<SessionNotification["update"], { sessionUpdate: K }> => u.sessionUpdate === kind,
    );
}

/** Joined agent text. */
export function agentText(updates: SessionNotification[]): string {
  return ofKind(updates, "agent_message_chunk")
    .map((u) => (u.content.type === "text" ? u.content.text : ""))
    .join("");
}

/** Resolves once `pred` holds for the updates so far (polled on each new update, no timers). */
export function waitFor(
  updates: SessionNotification[],
  pred: (all: SessionNotification[]) => boolean,
): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (pred(updates)) resolve();
      else setImmediate(check);
    };
    check();
  });
}
