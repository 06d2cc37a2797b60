// The observable context budget (SPEC M3, H7): what the client believes about the current
// (provider, model), the compression figures derived from it, and the session's measurements.
// Pure reads of config and store: `iris context` needs no model and no tools.
import {
  COMPRESSED_END_REASON,
  type ContextBudget,
  createContextEngine,
  type DefaultEngineOptions,
  estimateMessagesTokens,
  messagesOfPath,
  THRESHOLD_FLOOR,
} from "@iris/agent";
import { getProvider, type ModelInfoSource } from "@iris/llm";
import type { Store } from "@iris/store";
import type { IrisConfig } from "../config/index.js";
import { modelInfoFor } from "./route.js";
import { workspaceOfConfig } from "./workspace-setup.js";

/** H7: a switch over this many history tokens costs a full uncached prompt. */
export const SWITCH_WARN_TOKENS = 100_000;

export function engineOptionsFrom(config: IrisConfig): DefaultEngineOptions {
  const c = config.compression;
  // protect_last_n 0 is allowed in config; the engine always keeps the newest message.
  return { threshold: c.threshold, tailRatio: c.target_ratio, protectLastN: Math.max(1, c.protect_last_n) };
}

export interface BudgetView {
  budget: ContextBudget;
  source: ModelInfoSource;
  known: boolean;
  note?: string;
}

/** The believed window and the budget derived from it, recomputed on every call (SPEC M2). */
export function budgetFor(config: IrisConfig, provider: string, model: string): BudgetView {
  const lookup = modelInfoFor(provider, model, config);
  const budget = createContextEngine("default", engineOptionsFrom(config)).budget({
    id: model,
    provider,
    contextWindow: lookup.info.contextWindow,
  });
  return {
    budget,
    source: lookup.source,
    known: lookup.known,
    ...(lookup.note ? { note: lookup.note } : {}),
  };
}

/** "provider/model" or a model of the main provider → (provider, model). */
export function splitModelSpec(
  spec: string,
  config: IrisConfig,
  mainProvider: string,
): { provider: string; model: string } {
  const slash = spec.indexOf("/");
  const head = slash > 0 ? spec.slice(0, slash) : "";
  const isProvider = head !== "" && (getProvider(head) !== undefined || head in config.providers);
  return isProvider
    ? { provider: head, model: spec.slice(slash + 1) }
    : { provider: mainProvider, model: spec };
}

/** The prompt size the API reported for the session's last successful call, if any. */
export async function lastMeasuredPrompt(store: Store, sessionId: string): Promise<number | undefined> {
  const rows = await store.usageForSession(sessionId);
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i];
    if (row && row.status === "ok" && row.inputTokens > 0) return row.inputTokens;
  }
  return undefined;
}

/** Compressions so far: links of the parent chain whose parent ended by compression (SPEC C4). */
export async function compressionsSoFar(
  store: Store,
  sessionId: string,
): Promise<{ count: number; rootId: string }> {
  let count = 0;
  let current = await store.getSession(sessionId);
  const seen = new Set<string>([current.id]);
  while (current.parentSessionId && !seen.has(current.parentSessionId)) {
    const parent = await store.findSession(current.parentSessionId);
    if (!parent) break;
    if (parent.endReason === COMPRESSED_END_REASON) count++;
    seen.add(parent.id);
    current = parent;
  }
  return { count, rootId: current.id };
}

/** H7: why a model switch now would be costly; empty when it is not. */
export async function modelSwitchRisks(store: Store, sessionId: string): Promise<string[]> {
  const risks: string[] = [];
  const session = await store.getSession(sessionId);
  const path = await store.activePath(sessionId);
  const compressed = (await compressionsSoFar(store, sessionId)).count;
  if (compressed > 0 || path.some((n) => n.kind === "compaction")) {
    risks.push(
      `this conversation was compacted${compressed > 0 ? ` (${compressed}×)` : ""}: the new model gets the summary, ` +
        "not the original messages, and starts without a prompt cache",
    );
  }
  const tokens = estimateMessagesTokens(messagesOfPath(path), session.systemPrompt ?? undefined);
  if (tokens > SWITCH_WARN_TOKENS) {
    risks.push(
      `this conversation is about ${Math.round(tokens / 1000)}K tokens: the new model starts without a prompt cache and pays for all of it again`,
    );
  }
  return risks;
}

export interface ContextFigures {
  provider: string;
  model: string;
  view: BudgetView;
  enabled: boolean;
  /** The configured threshold (before a floor or override). */
  configuredThreshold: number;
  summaryModel: string;
  /** Where the terminal and file tools run (terminal.backend). */
  workspace?: string;
  session?: {
    id: string;
    lastPromptTokens?: number;
    estimateTokens: number;
    compressions: number;
    rootId: string;
  };
}

export async function contextFigures(args: {
  config: IrisConfig;
  provider: string;
  model: string;
  store?: Store;
  sessionId?: string;
  /** A prompt size measured in this process, newer than the store's rows. */
  lastPromptTokens?: number;
  /** Compressed in place since the last call: the store's last measurement is out of date. */
  sinceCompression?: boolean;
  /** The session's own workspace (after /workspace); default: what the config chooses. */
  workspace?: string;
}): Promise<ContextFigures> {
  const { config, provider, model, store, sessionId } = args;
  const summary = config.compression.summary_model;
  const figures: ContextFigures = {
    provider,
    model,
    view: budgetFor(config, provider, model),
    enabled: config.compression.enabled,
    configuredThreshold: config.compression.threshold,
    summaryModel: summary ?? `${provider}/${model} (the main route)`,
    workspace: args.workspace ?? workspaceOfConfig(config).description,
  };
  if (store && sessionId) {
    const row = await store.getSession(sessionId);
    const chain = await compressionsSoFar(store, sessionId);
    const measured =
      args.lastPromptTokens ??
      (args.sinceCompression ? undefined : await lastMeasuredPrompt(store, sessionId));
    figures.session = {
      id: sessionId,
      ...(measured !== undefined ? { lastPromptTokens: measured } : {}),
      estimateTokens: estimateMessagesTokens(
        messagesOfPath(await store.activePath(sessionId)),
        row.systemPrompt ?? undefined,
      ),
      compressions: chain.count,
      rootId: chain.rootId,
    };
  }
  return figures;
}

const n = (x: number) => x.toLocaleString("en-US");

function thresholdWhy(f: ContextFigures): string {
  const b = f.view.budget;
  if (b.thresholdSource === "floor")
    return `raised from ${f.configuredThreshold} to the ${THRESHOLD_FLOOR} floor: window under 512K`;
  if (b.thresholdSource === "per-model") return "per-model override";
  return "compression.threshold";
}

/** The report of `iris context` and `/context`: exact figures, one per line. */
export function formatContextReport(f: ContextFigures): string {
  const b = f.view.budget;
  const row = (label: string, value: string) => `  ${label.padEnd(19)}${value}\n`;
  let out = `context for ${f.provider}/${f.model}\n`;
  if (!f.view.known) out += `! ${f.view.note ?? "UNKNOWN MODEL: using a stated default window"}\n`;
  const note = f.view.known && f.view.note ? `: ${f.view.note}` : "";
  out += row("window believed", `${n(b.window)} tokens (source: ${f.view.source}${note})`);
  out += row(
    "compression",
    f.enabled ? "enabled (engine: default)" : "disabled (compression.enabled: false)",
  );
  out += row("trigger", `${n(b.triggerTokens)} tokens (threshold ${b.thresholdUsed}: ${thresholdWhy(f)})`);
  out += row("tail budget", `${n(b.tailBudgetTokens)} tokens (at least ${b.protectLastN} messages)`);
  out += row("summary cap", `${n(b.summaryCapTokens)} tokens`);
  out += row("gateway threshold", `${n(b.gatewayTokens)} tokens (0.85 of the window, fixed)`);
  out += row("summary model", f.summaryModel);
  if (f.workspace) out += row("workspace", f.workspace);
  const s = f.session;
  if (!s) {
    out += row("session", "none (give --session ID)");
    return out;
  }
  out += row("session", s.id);
  out += row(
    "last prompt",
    s.lastPromptTokens !== undefined
      ? `${n(s.lastPromptTokens)} tokens (measured by the API)`
      : `none yet (history now about ${n(s.estimateTokens)} tokens, estimated)`,
  );
  out += row(
    "compressions",
    `${s.compressions} so far${s.compressions > 0 ? ` (first session ${s.rootId})` : ""}`,
  );
  return out;
}
