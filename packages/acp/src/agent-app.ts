// Iris as an ACP agent (SPEC E2): the protocol's requests mapped onto host's process and sessions.
// ACP sessions are ordinary Iris sessions with source `acp` (they show in `iris sessions list`).
// Requests that need the profile wait for the process the runner opened at start; a broken
// config or a missing provider surfaces as the error of `session/new`, saying what to set.

// The app comes from the SDK's `/unstable` entry: session/fork, session/status and
// session/set_title are unstable ACP v1, and one app must use one entry throughout.
import type { SessionInfo } from "@agentclientprotocol/sdk/unstable";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { type IrisProcess, type RouteFlags, TITLE_MAX } from "@iris/host";
import { AcpSessions, storedAcpSession } from "./acp-sessions.js";
import { checkedCwd } from "./cwd.js";
import type { PromptBlock } from "./prompt-content.js";
import { replayUpdates } from "./replay.js";

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

/**
 * The ACP agent of one editor connection: the SDK app, its requests in three named groups, and
 * the open sessions (acp-sessions.ts) they work on.
 */
export class AcpAgentApp implements AcpAgent {
  readonly app = acp.agent({ name: "iris" });
  private readonly sessions: AcpSessions;

  constructor(private readonly opts: AcpAgentOptions) {
    this.sessions = new AcpSessions(opts);
    this.lifecycle();
    this.stored();
    this.turns();
  }

  shutdown(): Promise<void> {
    return this.sessions.shutdown();
  }

  /** Connecting, and opening, loading, resuming and closing sessions. */
  private lifecycle(): void {
    this.app
      .onRequest(acp.methods.agent.initialize, ({ params }) => {
        this.sessions.clientCaps = params.clientCapabilities ?? {};
        // Warm up after the answer is on its way: the first session/new finds the process open.
        setImmediate(() => this.opts.process().catch(() => undefined));
        return {
          protocolVersion: acp.PROTOCOL_VERSION,
          agentInfo: { name: "iris", title: "Iris", version: this.opts.version },
          agentCapabilities: {
            loadSession: true,
            promptCapabilities: { image: this.opts.vision, audio: false, embeddedContext: true },
            sessionCapabilities: { list: {}, resume: {}, close: {}, fork: {}, status: {}, title: {} },
          },
          authMethods: [],
          _meta: { iris: { promptQueue: QUEUE_NOTE } },
        };
      })
      .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
        const s = await this.sessions.open(client, params.cwd);
        this.sessions.ignoredMcpServers(s, params.mcpServers);
        return { sessionId: s.id, ...this.sessions.details(s, await this.sessions.process()) };
      })
      .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
        const s = await this.sessions.open(client, params.cwd, params.sessionId);
        this.sessions.ignoredMcpServers(s, params.mcpServers);
        const history = await s.session.history();
        for (const update of replayUpdates(history, params.cwd)) s.send(update);
        // What a crash left uncertain is told now, not only at the next turn (SPEC D4).
        for (const r of s.session.takeRepairNotices())
          s.send({
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `\n\nNote: ${r.message}\n` },
          });
        const title = await s.session.title();
        if (title) s.send({ sessionUpdate: "session_info_update", title });
        return this.sessions.details(s, await this.sessions.process());
      })
      .onRequest(acp.methods.agent.session.resume, async ({ params, client }) => {
        const s =
          this.sessions.get(params.sessionId) ??
          (await this.sessions.open(client, params.cwd, params.sessionId));
        return this.sessions.details(s, await this.sessions.process());
      })
      .onRequest(acp.methods.agent.session.close, async ({ params }) => {
        await this.sessions.close(this.sessions.mustGet(params.sessionId));
        return {};
      });
  }

  /** The stored ACP sessions: listed, forked, asked about and renamed. */
  private stored(): void {
    this.app
      .onRequest(acp.methods.agent.session.list, async ({ params }) => {
        const iris = await this.sessions.process();
        const offset = params.cursor ? Number.parseInt(params.cursor, 10) : 0;
        if (!Number.isInteger(offset) || offset < 0)
          throw acp.RequestError.invalidParams(undefined, `bad cursor '${params.cursor}'`);
        // Newest first; the cursor is the offset of the next page. A conversation compression
        // moved on is listed once, under its newest id.
        const page = await iris.listSessions({
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
        const iris = await this.sessions.process();
        const source = await storedAcpSession(iris, params.sessionId);
        if (!source) throw acp.RequestError.sessionNotFound(params.sessionId);
        checkedCwd(params.cwd);
        // A turn running in the original is forked as it stands: calls without results yet are
        // closed in the copy (as after a crash), the original goes on untouched.
        const forked = await iris.forkSession(source, params.cwd, "acp");
        const s = await this.sessions.open(client, params.cwd, forked);
        this.sessions.ignoredMcpServers(s, params.mcpServers);
        return { sessionId: s.id, ...this.sessions.details(s, iris) };
      })
      .onRequest(acp.methods.agent.session.status, async ({ params }) => {
        if (this.sessions.get(params.sessionId)) return { status: "open" };
        const iris = await this.sessions.process();
        if (!(await storedAcpSession(iris, params.sessionId)))
          throw acp.RequestError.sessionNotFound(params.sessionId);
        return { status: "saved" };
      })
      .onRequest(acp.methods.agent.session.setTitle, async ({ params }) => {
        const title = params.title.replace(/\s+/g, " ").trim().slice(0, TITLE_MAX);
        if (!title) throw acp.RequestError.invalidParams(undefined, "the title is empty");
        const iris = await this.sessions.process();
        const id = await storedAcpSession(iris, params.sessionId);
        if (!id) throw acp.RequestError.sessionNotFound(params.sessionId);
        await iris.setSessionTitle(id, title);
        this.sessions.get(params.sessionId)?.send({ sessionUpdate: "session_info_update", title });
        return { title };
      });
  }

  /** A turn and what it runs with: prompt, cancel, approval mode, model and workspace. */
  private turns(): void {
    this.app
      .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
        const s = this.sessions.mustGet(params.sessionId);
        try {
          s.session.setApprovalMode(params.modeId as "manual" | "smart" | "off");
        } catch (err) {
          throw acp.RequestError.invalidParams(undefined, err instanceof Error ? err.message : String(err));
        }
        s.send({ sessionUpdate: "current_mode_update", currentModeId: s.session.approvalMode });
        return {};
      })
      .onRequest(acp.methods.agent.session.setConfigOption, async ({ params }) => {
        const s = this.sessions.mustGet(params.sessionId);
        if (params.configId === "workspace" && typeof params.value === "string")
          return this.sessions.setWorkspace(s, params.value, await this.sessions.process());
        if (params.configId !== "model" || typeof params.value !== "string")
          throw acp.RequestError.invalidParams(
            undefined,
            `unknown config option '${params.configId}' (Iris has: model, workspace)`,
          );
        if (s.session.busy)
          throw acp.RequestError.invalidParams(undefined, "the model cannot change while a turn runs");
        const switched = await s.session.switchModel(params.value);
        if (!switched.ok) throw acp.RequestError.invalidParams(undefined, switched.error);
        for (const w of switched.warnings) s.send({ sessionUpdate: "notice", severity: "warning", title: w });
        return { configOptions: this.sessions.details(s, await this.sessions.process()).configOptions };
      })
      .onRequest(acp.methods.agent.session.prompt, async ({ params }) => {
        const s = this.sessions.mustGet(params.sessionId);
        return { stopReason: await s.prompt(params.prompt as PromptBlock[]) };
      })
      .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
        this.sessions.get(params.sessionId)?.cancel();
      });
  }
}

export function createAcpAgent(opts: AcpAgentOptions): AcpAgent {
  return new AcpAgentApp(opts);
}
