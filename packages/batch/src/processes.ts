// The host processes of one batch run: one IrisProcess per distinct tool menu (the run's
// --toolsets, or an item's own `toolsets`), all over one rate limiter, so a 429 on a route slows
// every worker whatever its menu. Each item's conversation is a JSONL log in OUT.trajectories/
// (one file per item, removed once its row is written, kept past a kill for resume): trajectories never enter the profile's
// state.db (D5). What the processes share besides (route cooldowns) is kept in host's in-memory state.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import {
  InMemoryState,
  IrisProcess,
  type Profile,
  type RouteFlags,
  RouteLimiter,
  resolveMainRoute,
  splitModelSpec,
} from "@iris/host";
import type { Runtime } from "@iris/llm";

export interface BatchProcessesOptions {
  profile: Profile;
  env: Record<string, string | undefined>;
  /** The folder of the running items' conversation logs. */
  trajectoriesDir: string;
  /** The run's --toolsets (default: config `toolsets.batch`, else the batch default). */
  toolsets?: string[];
  route: RouteFlags;
  mainRuntime: Runtime;
}

export class BatchProcesses {
  readonly limiter = new RouteLimiter();
  /** Nothing of a conversation is in it (route cooldowns only), and nobody searches it. */
  private readonly state = InMemoryState.open();
  private readonly processes = new Map<string, Promise<IrisProcess>>();
  private readonly routes = new Map<string, ReturnType<BatchProcesses["runtimeFor"]>>();

  // A killed run's logs stay: their items continue from them (resume-item.ts).
  constructor(private readonly opts: BatchProcessesOptions) {}

  /** The JSONL log of one item (named by a hash of its key: keys may hold any character). */
  trajectoryPath(key: string): string {
    const name = createHash("sha256").update(key).digest("hex").slice(0, 32);
    return join(this.opts.trajectoriesDir, `${name}.jsonl`);
  }

  /** Removes the logs of every item but `keys` (those of items that got their row before a kill). */
  dropLogsExcept(keys: Iterable<string>): void {
    const dir = this.opts.trajectoriesDir;
    if (!existsSync(dir)) return;
    const keep = new Set([...keys].map((k) => basename(this.trajectoryPath(k))));
    for (const name of readdirSync(dir)) if (!keep.has(name)) rmSync(join(dir, name), { force: true });
  }

  /** The process whose menu is `toolsets` (or the run's). */
  processFor(toolsets: string[] | undefined): Promise<IrisProcess> {
    const list = toolsets ?? this.opts.toolsets;
    const key = list ? list.join(",") : "";
    let proc = this.processes.get(key);
    if (!proc) {
      const { profile } = this.opts;
      const config = profile.config;
      proc = IrisProcess.open({
        profile: {
          ...profile,
          config: {
            ...config,
            // Nobody is there to answer: batch.approvals decides (deny unless set to allow).
            approvals: { ...config.approvals, non_interactive: config.batch.approvals },
            // A dataset run neither reads nor writes the user's memory files.
            memory: { ...config.memory, enabled: false },
            toolsets: list ? { ...config.toolsets, batch: list } : config.toolsets,
          },
        },
        env: this.opts.env,
        platform: "batch",
        inMemory: this.state,
        routeLimiter: this.limiter,
      });
      this.processes.set(key, proc);
    }
    return proc;
  }

  /** The route of an item's `model` ("MODEL" of the run's provider, or "PROVIDER/MODEL"). */
  runtimeFor(model: string | undefined): { ok: true; runtime: Runtime } | { ok: false; error: string } {
    if (model === undefined) return { ok: true, runtime: this.opts.mainRuntime };
    const known = this.routes.get(model);
    if (known) return known;
    const { profile, route, mainRuntime } = this.opts;
    const spec = splitModelSpec(model, profile.config, mainRuntime.provider);
    // The run's provider keeps the endpoint and wire format given on the command line.
    const same = spec.provider === mainRuntime.provider;
    const resolved = resolveMainRoute(
      {
        ...spec,
        ...(same && route.baseUrl ? { baseUrl: route.baseUrl } : {}),
        ...(same && route.apiMode ? { apiMode: route.apiMode } : {}),
      },
      profile.config,
      profile.env,
    );
    const res = resolved.ok
      ? ({ ok: true, runtime: resolved.runtime } as const)
      : ({ ok: false, error: `model ${model}: ${resolved.error}` } as const);
    this.routes.set(model, res);
    return res;
  }

  /** Closes every process (their sessions first), then the state; the logs' folder goes once empty. */
  async close(): Promise<void> {
    const opened = await Promise.allSettled([...this.processes.values()]);
    await Promise.all(opened.map((p) => (p.status === "fulfilled" ? p.value.close() : undefined)));
    await this.state.close();
    const dir = this.opts.trajectoriesDir;
    if (existsSync(dir) && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  }
}
