// Iris as an ACP agent (SPEC E2): the protocol's requests mapped onto host's process and sessions.
// ACP sessions are ordinary Iris sessions with source `acp` (they show in `iris sessions list`).
// Requests that need the profile wait for the process the runner opened at start; a broken
// config or a missing provider surfaces as the error of `session/new`, saying what to set.

// The app comes from the SDK's `/unstable` entry: session/fork, session/status and
// session/set_title are unstable ACP v1, and one app must use one entry throughout.
import type { ClientCapabilities, SessionInfo } from "@agentclientprotocol/sdk/unstable";
import * as acp from "@agentclientprotocol/sdk/unstable";
import {
  type IrisProcess,
  type RouteFlags,
  switchSessionWorkspace,
  TITLE_MAX,
  takesImages,
  WORKSPACE_BACKENDS,
  type WorkspaceBackend,
} from "@iris/host";
import { listCatalogue } from "@iris/llm";
import { expandMcpInput } from "@iris/tools";
import { AcpSession } from "./acp-session.js";
import { editorClarify } from "./clarify.js";
import { AVAILABLE_COMMANDS, availableCommands } from "./commands.js";
import { configError } from "./config-error.js";
import { checkedCwd } from "./cwd.js";
import { PERMISSION_OPTIONS } from "./permissions.js";
import type { PromptBlock } from "./prompt-content.js";
import { replayUpdates } from "./replay.js";
import { modelOption, modeState, workspaceOptions } from "./session-options.js";

export interface AcpAgentOptions {
  /**
   * Opens the process (store, tools) on first use, once; a rejection's message is what
   * `session/new` answers. Started right after `initialize` is answered, so that never waits on it.
   */
  process: () => Promise<IrisProcess>;
  /** Whether the main route takes images (known from the profile before the process is open). */
  vision: boolean;
  version: string;
  /** Diagnostics (the profile's log file or stderr; never stdout). */
  log: (message: string) => void;
  /** Route flags given to `iris acp`; config decides the rest. */
  route?: RouteFlags;
}

/** Sessions listed per `session/list` page. */
export const LIST_PAGE_SIZE = 50;

export const QUEUE_NOTE = "A prompt sent while a turn runs is queued and answered in order after it.";

export interface AcpAgent {
  app: acp.AgentApp;
  /** Stops every running turn and waits (bounded) until each has recorded its end. */
  shutdown(): Promise<void>;
}

/** How long shutdown waits for a stopped turn to record its end. */
const SHUTDOWN_WAIT_MS = 5000;

/** The model names the bundled catalogue knows for a provider (the model picker's choices). */
const catalogueModelNames = (provider: string): string[] => listCatalogue(provider).map((m) => m.model);

export function createAcpAgent(opts: AcpAgentOptions): AcpAgent {
  const sessions = new Map<string, AcpSession>();
  let clientCaps: ClientCapabilities = {};
  const app = acp.agent({ name: "iris" });

  async function irisProcess(): Promise<IrisProcess> {
    try {
      return await opts.process();
    } catch (err) {
      throw configError(err instanceof Error ? err.message : String(err));
    }
  }

  function mustGet(sessionId: string): AcpSession {
    const s = sessions.get(sessionId);
    if (!s) throw acp.RequestError.sessionNotFound(sessionId);
    return s;
  }

  /** Opens an Iris session for the editor's cwd, started fresh or resumed from the store. */
  async function open(client: acp.AgentContext, cwd: string, resume?: string): Promise<AcpSession> {
    checkedCwd(cwd);
    const iris = await irisProcess();
    // Only an editor's own sessions: a chat's or an API key's conversation is someone else's.
    const stored = resume ? storedAcpSession(iris, resume) : undefined;
    if (resume && !stored) throw acp.RequestError.sessionNotFound(resume);
    let host: ReturnType<IrisProcess["openSession"]>;
    try {
      host = iris.openSession({ source: "acp", cwd, ...(opts.route ? { route: opts.route } : {}) });
    } catch (err) {
      throw configError(routeHelp(err, iris), iris.profile.home.paths.config);
    }
    if (stored) host.resumeSession(stored);
    else host.startSession();
    // The editor keeps the id it knows, also when compression moved the conversation on.
    const id = resume ?? host.id;
    const fsBoth = clientCaps.fs?.readTextFile === true && clientCaps.fs?.writeTextFile === true;
    const session: AcpSession = new AcpSession({
      id,
      host,
      vision: () => takesImages(host.runtime.provider, host.runtime.model, iris.profile.config),
      contextWindow: () => iris.modelInfo(host.runtime.provider, host.runtime.model).contextWindow,
      configOptions: () => [modelOption(host, iris, catalogueModelNames), ...workspaceOptions(host)],
      expandInput: (text) => expandMcpInput(iris.tools.mcp, text),
      channel: {
        update: (update) => client.notify(acp.methods.client.session.update, { sessionId: id, update }),
        askPermission: (toolCall, signal) =>
          client.request(
            acp.methods.client.session.requestPermission,
            { sessionId: id, toolCall, options: PERMISSION_OPTIONS },
            { cancellationSignal: signal, stopWaitingOnCancel: true },
          ),
        ...(fsBoth
          ? {
              files: {
                readText: async (path: string) =>
                  (await client.request(acp.methods.client.fs.readTextFile, { sessionId: id, path })).content,
                writeText: async (path: string, content: string) => {
                  await client.request(acp.methods.client.fs.writeTextFile, { sessionId: id, path, content });
                },
              },
            }
          : {}),
        clarify: editorClarify(client, clientCaps, id),
        log: opts.log,
      },
    });
    const previous = sessions.get(id);
    if (previous) await closeSession(previous);
    sessions.set(id, session);
    // After the response is queued: the editor learns the commands once the session exists.
    setImmediate(() =>
      session.send({ sessionUpdate: "available_commands_update", availableCommands: AVAILABLE_COMMANDS }),
    );
    // MCP prompts join the list once the servers have started (they never delay the session).
    if (iris.tools.mcp.connections.size > 0)
      void availableCommands(iris.tools.mcp)
        .then((all) => {
          if (all.length > AVAILABLE_COMMANDS.length && sessions.get(id) === session)
            session.send({ sessionUpdate: "available_commands_update", availableCommands: all });
        })
        .catch((err: unknown) => opts.log(`MCP prompts could not be listed: ${String(err)}`));
    return session;
  }

  async function closeSession(s: AcpSession): Promise<void> {
    s.cancel();
    sessions.delete(s.id);
    await s.host.close("closed by the editor");
  }

  /** Iris does not take MCP servers from the editor (mcpCapabilities is not advertised); say so. */
  function ignoredMcpServers(s: AcpSession, servers: readonly unknown[] | undefined): void {
    if (!servers?.length) return;
    opts.log(`session ${s.id}: ${servers.length} MCP server(s) from the editor ignored`);
    s.send({
      sessionUpdate: "notice",
      severity: "warning",
      title: `Iris does not connect to MCP servers given by the editor; ${servers.length} ignored.`,
    });
  }

  async function setWorkspace(s: AcpSession, value: string, iris: IrisProcess) {
    if (s.host.busy)
      throw acp.RequestError.invalidParams(undefined, "the workspace cannot change while a turn runs");
    if (!(WORKSPACE_BACKENDS as readonly string[]).includes(value))
      throw acp.RequestError.invalidParams(
        undefined,
        `unknown workspace '${value}' (${WORKSPACE_BACKENDS.join(", ")})`,
      );
    try {
      await switchSessionWorkspace(s.host.workspace, s.host.profile, s.host.cwd, value as WorkspaceBackend);
    } catch (err) {
      // Down or not configured: the session stays where it was.
      throw acp.RequestError.invalidParams(undefined, err instanceof Error ? err.message : String(err));
    }
    return { configOptions: details(s, iris).configOptions };
  }

  function details(s: AcpSession, iris: IrisProcess) {
    return {
      modes: modeState(s.host),
      configOptions: [modelOption(s.host, iris, catalogueModelNames), ...workspaceOptions(s.host)],
    };
  }

  app
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      clientCaps = params.clientCapabilities ?? {};
      // Warm up after the answer is on its way: the first session/new finds the process open.
      setImmediate(() => opts.process().catch(() => undefined));
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentInfo: { name: "iris", title: "Iris", version: opts.version },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: opts.vision, audio: false, embeddedContext: true },
          sessionCapabilities: { list: {}, resume: {}, close: {}, fork: {}, status: {}, title: {} },
        },
        authMethods: [],
        _meta: { iris: { promptQueue: QUEUE_NOTE } },
      };
    })
    .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
      const s = await open(client, params.cwd);
      ignoredMcpServers(s, params.mcpServers);
      return { sessionId: s.id, ...details(s, await irisProcess()) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      const s = await open(client, params.cwd, params.sessionId);
      ignoredMcpServers(s, params.mcpServers);
      const history = s.host.history();
      for (const update of replayUpdates(history, params.cwd)) s.send(update);
      // What a crash left uncertain is told now, not only at the next turn (SPEC D4).
      for (const r of s.host.takeRepairNotices())
        s.send({
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: `\n\nNote: ${r.message}\n` },
        });
      const title = s.host.title();
      if (title) s.send({ sessionUpdate: "session_info_update", title });
      return details(s, await irisProcess());
    })
    .onRequest(acp.methods.agent.session.resume, async ({ params, client }) => {
      const s = sessions.get(params.sessionId) ?? (await open(client, params.cwd, params.sessionId));
      return details(s, await irisProcess());
    })
    .onRequest(acp.methods.agent.session.list, async ({ params }) => {
      const iris = await irisProcess();
      const offset = params.cursor ? Number.parseInt(params.cursor, 10) : 0;
      if (!Number.isInteger(offset) || offset < 0)
        throw acp.RequestError.invalidParams(undefined, `bad cursor '${params.cursor}'`);
      // Newest first; the cursor is the offset of the next page. A conversation compression
      // moved on is listed once, under its newest id.
      const page = iris.listSessions({
        source: "acp",
        cwd: params.cwd ?? undefined,
        offset,
        limit: LIST_PAGE_SIZE,
      });
      const sessionsOut: SessionInfo[] = page.sessions.map(({ row, updatedAt }) => ({
        sessionId: row.id,
        cwd: row.cwd ?? "",
        title: row.title,
        updatedAt: new Date(updatedAt).toISOString(),
      }));
      return {
        sessions: sessionsOut,
        ...(page.more ? { nextCursor: String(offset + LIST_PAGE_SIZE) } : {}),
      };
    })
    .onRequest(acp.methods.agent.session.fork, async ({ params, client }) => {
      const iris = await irisProcess();
      const source = storedAcpSession(iris, params.sessionId);
      if (!source) throw acp.RequestError.sessionNotFound(params.sessionId);
      checkedCwd(params.cwd);
      // A turn running in the original is forked as it stands: calls without results yet are
      // closed in the copy (as after a crash), the original goes on untouched.
      const s = await open(client, params.cwd, iris.forkSession(source, params.cwd, "acp"));
      ignoredMcpServers(s, params.mcpServers);
      return { sessionId: s.id, ...details(s, iris) };
    })
    .onRequest(acp.methods.agent.session.status, async ({ params }) => {
      if (sessions.has(params.sessionId)) return { status: "open" };
      const iris = await irisProcess();
      if (!storedAcpSession(iris, params.sessionId)) throw acp.RequestError.sessionNotFound(params.sessionId);
      return { status: "saved" };
    })
    .onRequest(acp.methods.agent.session.setTitle, async ({ params }) => {
      const title = params.title.replace(/\s+/g, " ").trim().slice(0, TITLE_MAX);
      if (!title) throw acp.RequestError.invalidParams(undefined, "the title is empty");
      const iris = await irisProcess();
      const id = storedAcpSession(iris, params.sessionId);
      if (!id) throw acp.RequestError.sessionNotFound(params.sessionId);
      iris.setSessionTitle(id, title);
      sessions.get(params.sessionId)?.send({ sessionUpdate: "session_info_update", title });
      return { title };
    })
    .onRequest(acp.methods.agent.session.close, async ({ params }) => {
      await closeSession(mustGet(params.sessionId));
      return {};
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      const s = mustGet(params.sessionId);
      try {
        s.host.setApprovalMode(params.modeId as "manual" | "smart" | "off");
      } catch (err) {
        throw acp.RequestError.invalidParams(undefined, err instanceof Error ? err.message : String(err));
      }
      s.send({ sessionUpdate: "current_mode_update", currentModeId: s.host.approvalMode });
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, async ({ params }) => {
      const s = mustGet(params.sessionId);
      if (params.configId === "workspace" && typeof params.value === "string")
        return setWorkspace(s, params.value, await irisProcess());
      if (params.configId !== "model" || typeof params.value !== "string")
        throw acp.RequestError.invalidParams(
          undefined,
          `unknown config option '${params.configId}' (Iris has: model, workspace)`,
        );
      if (s.host.busy)
        throw acp.RequestError.invalidParams(undefined, "the model cannot change while a turn runs");
      const switched = s.host.switchModel(params.value);
      if (!switched.ok) throw acp.RequestError.invalidParams(undefined, switched.error);
      for (const w of switched.warnings) s.send({ sessionUpdate: "notice", severity: "warning", title: w });
      return { configOptions: details(s, await irisProcess()).configOptions };
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params }) => {
      const s = mustGet(params.sessionId);
      return { stopReason: await s.prompt(params.prompt as PromptBlock[]) };
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });
  async function shutdown(): Promise<void> {
    await Promise.all(
      [...sessions.values()].map((s) => {
        s.cancel();
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
        });
        return Promise.race([s.idle(), bound]).finally(() => clearTimeout(timer));
      }),
    );
  }

  return { app, shutdown };
}

/** A route that cannot be resolved, as a message that says exactly what to set. */
function routeHelp(err: unknown, iris: IrisProcess): string {
  const why = err instanceof Error ? err.message : String(err);
  const paths = iris.profile.home.paths;
  return (
    `${why}. Set model.provider and model.name in ${paths.config} ` +
    `(e.g. model: {provider: openrouter, name: anthropic/claude-sonnet-4.5}) and the provider's key ` +
    `(e.g. OPENROUTER_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY) in ${paths.env}.`
  );
}

/** The stored ACP session an editor's id stands for now (what session/list would show), if any. */
function storedAcpSession(iris: IrisProcess, id: string): string | undefined {
  const found = iris.findSession(id, { owner: (r) => r.source === "acp" });
  return found.ok ? found.row.id : undefined;
}
