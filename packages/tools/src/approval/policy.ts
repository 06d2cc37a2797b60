// The approval policy (T4). Order: hard block (no mode runs it) → mode off → remembered or
// pre-allowed pattern keys → a tool an active skill pre-approves → smart mode's auxiliary model → nobody to ask (non-interactive) →
// the user, with a timeout that denies. Every failure denies; check() never throws.

import { homedir } from "node:os";
import type { ApprovalRequest, ToolContext } from "../define.js";
import { type Detection, detectCommand, patternCatalogue } from "./detect.js";
import { type FileAccessCheck, judgeFileAccess, STRICT_KEYS } from "./file-access.js";
import type {
  ApprovalDecision,
  ApprovalEvent,
  ApprovalJudge,
  ApprovalMode,
  ApprovalPolicy,
  JudgeVerdict,
} from "./types.js";

export interface ApprovalPolicyOptions {
  mode: ApprovalMode;
  /** Pattern keys approved "always" earlier (config.yaml `approvals.allow`). */
  allowKeys?: readonly string[];
  /** Smart mode's auxiliary model. Without one, smart mode asks the user like manual. */
  judge?: ApprovalJudge;
  /** Saves a pattern key answered "always" (the CLI writes it into config.yaml). */
  persistAlways?: (patternKey: string) => void | Promise<void>;
  /** How long the user has to answer before the command is denied. Default 60 s. */
  timeoutMs?: number;
  /** How long the auxiliary model has before the user is asked instead. Default 30 s. */
  judgeTimeoutMs?: number;
  /** What a run nobody can answer does with a command needing approval. Default "deny". */
  nonInteractive?: "deny" | "allow";
  /** The home folder `~` and `$HOME` expand to. Default the process's. */
  home?: string;
  /** The Iris profile folder: its config, keys and skills are protected (default `~/.iris`). */
  profile?: string;
  /** Whether the file tools read outside the work folder unasked (`files.outside_workdir`). Default "ask". */
  outsideWorkdir?: "ask" | "allow";
  /** Observer for hooks and logs; its errors are ignored. */
  onEvent?: (event: ApprovalEvent) => void;
}

export const DEFAULT_APPROVAL_TIMEOUT_MS = 60_000;

const TIMEOUT = Symbol("timeout");
type Timed<T> = T | typeof TIMEOUT;

export function createApprovalPolicy(options: ApprovalPolicyOptions): ApprovalPolicy {
  const allowed = new Set(options.allowKeys ?? []);
  const timeoutMs = options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const judgeTimeoutMs = options.judgeTimeoutMs ?? 30_000;
  const emit = (event: ApprovalEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // An observer must not change the decision.
    }
  };
  const deny = (reason: string): ApprovalDecision => ({ allowed: false, reason });
  const allow: ApprovalDecision = { allowed: true };

  async function decide(
    tool: { name: string },
    subject: string,
    ctx: ToolContext,
    required: readonly { key: string; description: string }[],
    access: readonly FileAccessCheck[],
  ): Promise<ApprovalDecision> {
    const place = {
      // `~` in a path on a remote or container workspace is that side's home.
      home:
        ctx.workspace && ctx.workspace.kind !== "local" && ctx.workspace.kind !== "editor"
          ? ctx.workspace.home
          : options.home,
      profile: options.profile,
      workdir: ctx.workdir ?? (ctx.cwd || undefined),
    };
    const detected: Detection = access.length
      ? judgeFileAccess(access, {
          ...place,
          home: place.home ?? homedir(),
          outside: options.outsideWorkdir ?? "ask",
        })
      : required.length
        ? { matches: [] }
        : await detectCommand(subject, { ...place, cwd: ctx.cwd || undefined });
    const detection = { ...detected, matches: [...detected.matches, ...required] };
    if (detection.blocked) {
      const { key, description } = detection.blocked;
      emit({
        type: "blocked",
        request: { tool: tool.name, command: subject, reason: description, patternKey: key },
      });
      return deny(`blocked: ${description}. This command is never run, in any approval mode.`);
    }
    const session = ctx.approvalMemory;
    // Credentials and Iris's own configuration: asked in every mode; "always" and skills do not cover them.
    const pending = detection.matches.filter(
      (m) => !(allowed.has(m.key) && !STRICT_KEYS.has(m.key)) && !session?.has(m.key),
    );
    const request: ApprovalRequest = {
      tool: tool.name,
      command: subject,
      reason: (pending.length ? pending : detection.matches).map((m) => m.description).join("; "),
      patternKey: (pending[0] ?? detection.matches[0])?.key ?? "",
      patternKeys: pending.map((m) => m.key),
      alwaysAllows: alwaysAllows(pending.map((m) => m.key)),
      timeoutSeconds: Math.round(timeoutMs / 1000),
      ...(ctx.cwd ? { cwd: ctx.cwd } : {}),
    };
    if (detection.matches.length === 0) return allow;
    const strictPending = pending.some((m) => STRICT_KEYS.has(m.key));
    if (options.mode === "off" && !strictPending) {
      emit({ type: "granted", request, by: "off" });
      return allow;
    }
    // A network-less container whose config says so (terminal.docker.relax_approvals): its
    // commands run unasked; file tools, tool rules, credentials and Iris's own files still ask.
    if (ctx.workspace?.relaxesApprovals && !access.length && !required.length && !strictPending) {
      emit({ type: "granted", request, by: "sandbox" });
      return allow;
    }
    if (pending.length === 0) {
      emit({ type: "granted", request, by: "remembered" });
      return allow;
    }
    // Denied "for this session" by the user: no judge, skill or question changes that.
    if (pending.some((m) => session?.isRejected(m.key))) {
      emit({ type: "denied", request, by: "remembered" });
      return deny(`the user denied this for the rest of the session (${request.reason})`);
    }
    // An active skill's `allowed_tools` (K4): pre-approved for the rest of the session.
    const skill = strictPending ? undefined : session?.preapprovedBy(tool.name);
    if (skill !== undefined) {
      emit({ type: "granted", request, by: "skill", skill });
      return allow;
    }

    // The judge never decides on credentials or Iris's own configuration: the user does.
    if (options.mode === "smart" && options.judge && !strictPending) {
      emit({ type: "requested", request, by: "judge" });
      const verdict = await askJudge(options.judge, request, judgeTimeoutMs, ctx.signal);
      if (verdict === "approve") {
        emit({ type: "granted", request, by: "judge" });
        return allow;
      }
      if (verdict === "deny") {
        emit({ type: "denied", request, by: "judge" });
        return deny(`denied by the approval model: ${request.reason}`);
      }
    }

    if (ctx.interactive === false) {
      if (options.nonInteractive === "allow" && !strictPending) {
        emit({ type: "granted", request, by: "non-interactive" });
        return allow;
      }
      emit({ type: "denied", request, by: "non-interactive" });
      return deny(`needs approval (${request.reason}) but nobody can approve in this non-interactive run`);
    }

    emit({ type: "requested", request, by: "user" });
    // Withdraws the question on timeout or cancel, so the front end stops waiting for a line.
    const withdraw = new AbortController();
    const answer = await race(
      Promise.resolve().then(() => ctx.approve(request, withdraw.signal)),
      timeoutMs,
      ctx.signal,
    ).catch(() => "deny" as const);
    if (answer === TIMEOUT) withdraw.abort("timeout");
    else if (!withdraw.signal.aborted) withdraw.abort(ctx.signal.aborted ? "cancelled" : "answered");
    if (answer === TIMEOUT) {
      emit({ type: "denied", request, by: "timeout" });
      return deny(`needs approval (${request.reason}); no answer within ${Math.round(timeoutMs / 1000)} s`);
    }
    if (answer === "once" || answer === "session" || answer === "always") {
      if (answer !== "once") session?.remember(pending.map((m) => m.key));
      if (answer === "always")
        await persist(pending.filter((m) => !STRICT_KEYS.has(m.key)).map((m) => m.key));
      emit({ type: "granted", request, by: "user", answer });
      return allow;
    }
    if (answer === "deny_session") session?.reject(pending.map((m) => m.key));
    emit({ type: "denied", request, by: "user" });
    return deny(`the user denied it (${request.reason})`);
  }

  async function persist(keys: string[]): Promise<void> {
    for (const key of keys) {
      allowed.add(key);
      try {
        await options.persistAlways?.(key);
      } catch {
        // Still approved for this session; saving it is best effort.
      }
    }
  }

  return {
    async check(tool, subject, ctx, required, access) {
      try {
        return await decide(tool, subject, ctx, required ?? [], access ?? []);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        return deny(`the approval check failed (${why})`);
      }
    },
  };
}

/** One line per key: the whole category "always" lets run without asking, in every session. */
function alwaysAllows(keys: readonly string[]): string[] {
  const catalogue = new Map(patternCatalogue().map((p) => [p.key, p.description]));
  return keys.map((k) =>
    k.startsWith("unproven:")
      ? `${k}: runs ${k.slice(9)} with any arguments`
      : `${k}: ${catalogue.get(k) ?? k}`,
  );
}

async function askJudge(
  judge: ApprovalJudge,
  request: ApprovalRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<JudgeVerdict> {
  try {
    const verdict = await race(
      Promise.resolve().then(() => judge(request)),
      timeoutMs,
      signal,
    );
    return verdict === "approve" || verdict === "deny" ? verdict : "escalate";
  } catch {
    return "escalate";
  }
}

/** Resolves with the promise, TIMEOUT after `ms`, or rejects when `signal` aborts. */
function race<T>(promise: Promise<T>, ms: number, signal: AbortSignal): Promise<Timed<T>> {
  return new Promise<Timed<T>>((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error("cancelled"));
      return;
    }
    const onAbort = (): void => finish(() => reject(new Error("cancelled")));
    const timer = setTimeout(() => finish(() => resolve(TIMEOUT)), ms);
    let done = false;
    function finish(action: () => void): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      action();
    }
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => finish(() => resolve(v)),
      (e: unknown) => finish(() => reject(e)),
    );
  });
}
