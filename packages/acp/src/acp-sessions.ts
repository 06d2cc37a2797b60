// The ACP sessions one editor connection has open, and how one is opened, resumed, described
// and closed: the part of the ACP agent (agent-app.ts) that holds state.
import type { ClientCapabilities } from "@agentclientprotocol/sdk/unstable";
import * as acp from "@agentclientprotocol/sdk/unstable";
import {
  type IrisProcess,
  type RouteFlags,
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
import { modelOption, modeState, workspaceOptions } from "./session-options.js";

/** How long shutdown waits for a stopped turn to record its end. */
const SHUTDOWN_WAIT_MS = 5000;

/** The model names the bundled catalogue knows for a provider (the model picker's choices). */
const catalogueModelNames = (provider: string): string[] => listCatalogue(provider).map((m) => m.model);

export interface AcpSessionsOptions {
  process: () => Promise<IrisProcess>;
  log: (message: string) => void;
  route?: RouteFlags;
}

export class AcpSessions {
  private readonly sessions = new Map<string, AcpSession>();
  /** What the editor said it can do (initialize): file access, clarify dialogs. */
  clientCaps: ClientCapabilities = {};

  constructor(private readonly opts: AcpSessionsOptions) {}

  /** The process, or the config error `session/new` answers with. */
  async process(): Promise<IrisProcess> {
    try {
      return await this.opts.process();
    } catch (err) {
      throw configError(err instanceof Error ? err.message : String(err));
    }
  }

  get(sessionId: string): AcpSession | undefined {
    return this.sessions.get(sessionId);
  }

  mustGet(sessionId: string): AcpSession {
    const s = this.sessions.get(sessionId);
    if (!s) throw acp.RequestError.sessionNotFound(sessionId);
    return s;
  }

  /** Opens an Iris session for the editor's cwd, started fresh or resumed from the store. */
  async open(client: acp.AgentContext, cwd: string, resume?: string): Promise<AcpSession> {
    checkedCwd(cwd);
    const iris = await this.process();
    // Only an editor's own sessions: a chat's or an API key's conversation is someone else's.
    const stored = resume ? await storedAcpSession(iris, resume) : undefined;
    if (resume && !stored) throw acp.RequestError.sessionNotFound(resume);
    let session: ReturnType<IrisProcess["openSession"]>;
    try {
      session = iris.openSession({
        source: "acp",
        cwd,
        ...(this.opts.route ? { route: this.opts.route } : {}),
      });
    } catch (err) {
      throw configError(routeHelp(err, iris), iris.profile.home.paths.config);
    }
    if (stored) await session.resumeSession(stored);
    else await session.startSession();
    // The editor keeps the id it knows, also when compression moved the conversation on.
    const id = resume ?? session.id;
    const fsBoth = this.clientCaps.fs?.readTextFile === true && this.clientCaps.fs?.writeTextFile === true;
    const thread: AcpSession = new AcpSession({
      id,
      session,
      vision: () => takesImages(session.runtime.provider, session.runtime.model, iris.profile.config),
      contextWindow: () => iris.modelInfo(session.runtime.provider, session.runtime.model).contextWindow,
      configOptions: () => [modelOption(session, iris, catalogueModelNames), ...workspaceOptions(session)],
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
        clarify: editorClarify(client, this.clientCaps, id),
        log: this.opts.log,
      },
    });
    const previous = this.sessions.get(id);
    if (previous) await this.close(previous);
    this.sessions.set(id, thread);
    // After the response is queued: the editor learns the commands once the session exists.
    setImmediate(() =>
      thread.send({ sessionUpdate: "available_commands_update", availableCommands: AVAILABLE_COMMANDS }),
    );
    // MCP prompts join the list once the servers have started (they never delay the session).
    if (iris.tools.mcp.connections.size > 0)
      void availableCommands(iris.tools.mcp)
        .then((all) => {
          if (all.length > AVAILABLE_COMMANDS.length && this.sessions.get(id) === thread)
            thread.send({ sessionUpdate: "available_commands_update", availableCommands: all });
        })
        .catch((err: unknown) => this.opts.log(`MCP prompts could not be listed: ${String(err)}`));
    return thread;
  }

  async close(s: AcpSession): Promise<void> {
    s.cancel();
    this.sessions.delete(s.id);
    await s.session.close("closed by the editor");
  }

  /** Iris does not take MCP servers from the editor (mcpCapabilities is not advertised); say so. */
  ignoredMcpServers(s: AcpSession, servers: readonly unknown[] | undefined): void {
    if (!servers?.length) return;
    this.opts.log(`session ${s.id}: ${servers.length} MCP server(s) from the editor ignored`);
    s.send({
      sessionUpdate: "notice",
      severity: "warning",
      title: `Iris does not connect to MCP servers given by the editor; ${servers.length} ignored.`,
    });
  }

  async setWorkspace(s: AcpSession, value: string, iris: IrisProcess) {
    if (s.session.busy)
      throw acp.RequestError.invalidParams(undefined, "the workspace cannot change while a turn runs");
    if (!(WORKSPACE_BACKENDS as readonly string[]).includes(value))
      throw acp.RequestError.invalidParams(
        undefined,
        `unknown workspace '${value}' (${WORKSPACE_BACKENDS.join(", ")})`,
      );
    try {
      await s.session.switchWorkspace(value as WorkspaceBackend);
    } catch (err) {
      // Down or not configured: the session stays where it was.
      throw acp.RequestError.invalidParams(undefined, err instanceof Error ? err.message : String(err));
    }
    return { configOptions: this.details(s, iris).configOptions };
  }

  /** The modes and config options an answer about the session carries. */
  details(s: AcpSession, iris: IrisProcess) {
    return {
      modes: modeState(s.session),
      configOptions: [modelOption(s.session, iris, catalogueModelNames), ...workspaceOptions(s.session)],
    };
  }

  /** Stops every running turn and waits (bounded) until each has recorded its end. */
  async shutdown(): Promise<void> {
    await Promise.all(
      [...this.sessions.values()].map((s) => {
        s.cancel();
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
        });
        return Promise.race([s.idle(), bound]).finally(() => clearTimeout(timer));
      }),
    );
  }
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
export async function storedAcpSession(iris: IrisProcess, id: string): Promise<string | undefined> {
  const found = await iris.findSession(id, { owner: (r) => r.source === "acp" });
  return found.ok ? found.row.id : undefined;
}
