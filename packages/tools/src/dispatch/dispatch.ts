// One tool call from the model → one result string (T3): exact-name lookup, argument
// validation, the approval policy, the call itself (abort-aware), the size cap. Errors are sealed
// twice: the tool's own throw becomes a JSON error, and so does anything escaping this file's own
// logic. It never throws.

import type { ApprovalPolicy } from "../approval/types.js";
import type { ToolContext, ToolDefinition, ToolResultValue } from "../define.js";
import type { ToolRegistry } from "../registry/registry.js";
import { sessionDirOf } from "../terminal/scope.js";
import { capResult, DEFAULT_MAX_RESULT_CHARS } from "./cap.js";
import { errorResult, messageOf, type ToolCallResult } from "./errors.js";
import { filesBefore } from "./files-before.js";
import { parseArguments } from "./validate.js";

export type { ToolCallResult } from "./errors.js";

export interface ToolCallInput {
  name: string;
  argumentsJson: string;
}

export interface DispatchOptions {
  /** Results longer than this are cut (default 50,000 characters). */
  maxResultChars?: number;
  /** Where oversize results are saved (default `<tmp>/iris-tool-results`). */
  spillDir?: string;
  /** How long an aborted tool may take to settle before it counts as uncertain (default 2 s). */
  abortGraceMs?: number;
}

/** Long enough for a tool that honours its signal (a killed process group, a closed file). */
export const DEFAULT_ABORT_GRACE_MS = 2_000;

export async function dispatchToolCall(
  registry: ToolRegistry,
  call: ToolCallInput,
  ctx: ToolContext,
  policy: ApprovalPolicy,
  options: DispatchOptions = {},
): Promise<ToolCallResult> {
  try {
    const withEnv = ctx.environment ? ctx : { ...ctx, environment: registry.environment };
    return await dispatch(registry, call, withEnv, policy, options);
  } catch (e) {
    return errorResult(`tool dispatch failed: ${messageOf(e)}`, { tool: call?.name });
  }
}

async function dispatch(
  registry: ToolRegistry,
  call: ToolCallInput,
  ctx: ToolContext,
  policy: ApprovalPolicy,
  options: DispatchOptions,
): Promise<ToolCallResult> {
  const tool = registry.get(call.name);
  if (!tool) return errorResult(`unknown tool '${call.name}'; call only the tools you were given`);

  const parsed = parseArguments(tool.parameters, call.argumentsJson);
  if (!parsed.ok) return errorResult(parsed.message, { tool: tool.name });

  if (ctx.signal.aborted) return errorResult("cancelled before it ran", { tool: tool.name });

  const rule = tool.approvalRule?.(parsed.args);
  const access = tool.approvalAccess?.(parsed.args, ctx);
  const subject =
    rule?.subject ??
    approvalSubjectOf(tool, parsed.args) ??
    (access?.length ? access.map((a) => `${tool.name} ${a.path}`).join("; ") : undefined);
  if (subject !== undefined) {
    const cwd = tool.approvalCwd?.(ctx);
    const required = rule ? [{ key: rule.key, description: rule.description }] : undefined;
    // The work folder is the workspace's own (remote_dir over ssh), as the tool's paths are.
    const judged = { ...ctx, workdir: ctx.workdir ?? sessionDirOf(ctx), ...(cwd ? { cwd } : {}) };
    const decision = await policy.check(tool, subject, judged, required, access);
    if (!decision.allowed) {
      return errorResult(`not run: ${decision.reason}`, { tool: tool.name, denied: true });
    }
  }

  if (ctx.beforeExecute) {
    // The receipt keeps the files this call writes as they are now (`/rewind`).
    const gate = await ctx.beforeExecute(await filesBefore(access, ctx));
    if (!gate.run) return gate.result;
  }

  const outcome = await runTool(tool, parsed.args, ctx, options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS);
  if (outcome.uncertain) return outcome;
  const content = await capResult(outcome.content, {
    maxChars: options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    spillDir: options.spillDir,
    toolName: tool.name,
    truncationHint: tool.truncationHint,
  });
  return { content, isError: outcome.isError, ...(outcome.images?.length ? { images: outcome.images } : {}) };
}

function approvalSubjectOf(tool: ToolDefinition, args: unknown): string | undefined {
  if (!tool.approvalSubject) return undefined;
  const subject = tool.approvalSubject(args);
  return typeof subject === "string" && subject.trim() !== "" ? subject : undefined;
}

/**
 * Handler-level sealing, and the abort: a tool that honours its signal settles within the grace
 * period and its own result stands (it says what it did). One that does not is never reported
 * as finished: the result is marked uncertain, so its receipt stays open and resume asks.
 */
async function runTool(
  tool: ToolDefinition,
  args: unknown,
  ctx: ToolContext,
  graceMs: number,
): Promise<ToolCallResult> {
  let onAbort: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<ToolCallResult>((resolve) => {
    onAbort = () => {
      timer = setTimeout(
        () =>
          resolve({
            ...errorResult(
              `cancelled while running; it did not stop within ${graceMs / 1000} s, so whether it took effect is unknown`,
              { tool: tool.name },
            ),
            uncertain: true,
          }),
        graceMs,
      );
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const running = Promise.resolve()
      .then(() => tool.execute(args, ctx))
      .then(normalise, (e: unknown) => errorResult(messageOf(e), { tool: tool.name }));
    return await Promise.race([running, gaveUp]);
  } finally {
    if (onAbort) ctx.signal.removeEventListener("abort", onAbort);
    if (timer) clearTimeout(timer);
  }
}

function normalise(value: ToolResultValue): ToolCallResult {
  if (typeof value === "string") return { content: value, isError: false };
  if (value && typeof value === "object" && typeof value.content === "string") {
    const images = Array.isArray(value.images) && value.images.length ? { images: value.images } : {};
    return { content: value.content, isError: value.isError === true, ...images };
  }
  // A tool returned something off-contract: show it rather than fail.
  return { content: JSON.stringify(value) ?? String(value), isError: false };
}
