// `iris acp`: the editor starts Iris as a child process and speaks ACP over stdin/stdout.
// Order matters: stdout is claimed first, then the profile is read; a broken config keeps the
// agent up (initialize works) and comes back as the error of `session/new`, saying what to fix.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/unstable";
import {
  configureProcessLogging,
  formatConfigErrors,
  IrisProcess,
  loadProfile,
  type RouteFlags,
  resolveMainRoute,
  takesImages,
} from "@iris/host";
import { createAcpAgent } from "./agent-app.js";
import { claimStdout } from "./stdout-guard.js";

export interface AcpRunOptions {
  env: Record<string, string | undefined>;
  profile?: string;
  /** Route flags (--provider, --model, --base-url, --api-mode); config decides the rest. */
  route?: RouteFlags;
  version: string;
}

export async function runAcpStdio(opts: AcpRunOptions): Promise<number> {
  const protocolOut = claimStdout();
  const stderrLog = (message: string): void => {
    process.stderr.write(`iris acp: ${message}\n`);
  };
  let log = stderrLog;
  let vision = false;
  let open: () => Promise<IrisProcess>;
  const loaded = loadProfile({ env: opts.env, ...(opts.profile ? { profile: opts.profile } : {}) });
  if (!loaded.ok) {
    const message = `the profile's config is invalid:\n${formatConfigErrors(loaded.errors)}`;
    stderrLog(message);
    open = () => Promise.reject(new Error(message));
  } else {
    const profile = loaded;
    const logger = configureProcessLogging(profile, opts.env).child({ component: "acp" });
    log = (message) => {
      logger.warn(message);
    };
    const route = resolveMainRoute(opts.route ?? {}, profile.config, profile.env);
    if (route.ok) vision = takesImages(route.runtime.provider, route.runtime.model, profile.config);
    open = () => IrisProcess.open({ profile, env: opts.env, platform: "acp", logger });
  }
  // Opened on first use, once (the agent starts it right after answering initialize).
  let opened: Promise<IrisProcess> | undefined;
  const irisProcess = (): Promise<IrisProcess> => {
    opened ??= open();
    return opened;
  };
  const agent = createAcpAgent({
    process: irisProcess,
    vision,
    version: opts.version,
    log,
    ...(opts.route ? { route: opts.route } : {}),
  });
  const connection = agent.app.connect(
    acp.ndJsonStream(
      Writable.toWeb(protocolOut),
      Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
    ),
  );
  // The editor stops its agent with SIGTERM (or the terminal with SIGINT): turns are stopped and
  // the store is closed cleanly instead of dying mid-write.
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled = signal;
    void agent.shutdown().finally(() => connection.close());
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  await connection.closed.catch((err: unknown) => log(`connection closed: ${String(err)}`));
  await agent.shutdown();
  const iris = await opened?.catch(() => undefined);
  await iris?.close();
  // Only now: a signal that raced the end of stdin is still counted, not dropped.
  process.off("SIGTERM", onSignal);
  process.off("SIGINT", onSignal);
  return signalled === "SIGINT" ? 130 : signalled === "SIGTERM" ? 143 : 0;
}
