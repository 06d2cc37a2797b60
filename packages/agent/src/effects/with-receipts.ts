// A ToolBox wrapper that brackets every mutating, communicating or administrative tool call with
// an effect receipt (SPEC D4). The turn stores the assistant message before tools run (the
// checkpoint); the receipt is begun against that stored node, so a call whose checkpoint is
// missing is refused instead of run. A finished receipt for the same operation is replayed, an
// unfinished one is reported as effect_outcome_uncertain: the tool never runs twice for one op.
// Calls a tool makes itself (execute_code's inner calls) get receipts of their own, numbered
// under the outer call's operation (`<op>#<n>`), so one inner side effect is not run twice either.
import type { Message, ToolCallPart } from "@iris/llm";
import type { Store } from "@iris/store";
import type { ExecuteGate, FileBefore } from "@iris/tools";
import type { AgentEvents } from "../events.js";
import type { InnerReceipt, ToolBox, ToolRunContext } from "../ports.js";
import { argsFingerprint, callIndexOf, logicalOpId } from "./op-id.js";
import { replayBody, resolvedBody, type ToolResultBody, uncertainBody } from "./outcomes.js";

/** Where receipts live: the store, or a conversation log's own receipts (LogReceipts). */
export interface ReceiptStore extends Pick<Store, "beginEffect" | "completeEffect" | "failEffect"> {
  findNode(id: string): { message: Message | null } | undefined;
}

export interface ReceiptOptions {
  /** Where replays and refusals are reported to the user. */
  events?: AgentEvents;
}

export function withReceipts(inner: ToolBox, store: ReceiptStore, opts: ReceiptOptions = {}): ToolBox {
  const say = (level: "info" | "warn", message: string) => opts.events?.emit("status", { level, message });
  return {
    specs: () => inner.specs(),
    traits: (name) => inner.traits(name),
    run: async (call: ToolCallPart, ctx: ToolRunContext): Promise<ToolResultBody> => {
      const traits = inner.traits(call.name);
      // Reads (and unknown tools, which the inner box answers with an error) need no receipt.
      if (!traits || traits.effect === "read") return inner.run(call, ctx);

      // The receipt is begun through the gate the executing toolbox calls after validation and
      // approval, right before the tool runs: a denied call leaves no receipt, and a crash while
      // the user is still deciding is not mistaken for an uncertain effect.
      const anchor: Anchor = {
        sessionId: ctx.sessionId,
        step: ctx.stepId,
        tool: call.name,
        nodeId: ctx.assistantNodeId,
        callId: call.callId,
      };
      let opId: string | undefined;
      const outer = bracket(store, say, call.name, anchor, () => {
        const message = store.findNode(ctx.assistantNodeId)?.message;
        const index = message?.role === "assistant" ? callIndexOf(message, call.callId) : -1;
        if (index < 0) return `its call is not checkpointed in stored node ${ctx.assistantNodeId}`;
        opId = logicalOpId(ctx.sessionId, ctx.assistantNodeId, index);
        return { logicalOpId: opId, argsFingerprint: argsFingerprint(call.argumentsJson) };
      });
      let innerCount = 0;
      const innerReceipt = (name: string, argumentsJson: string): InnerReceipt => {
        const n = ++innerCount;
        // Stored under the outer call (the checkpointed one); the inner tool and its arguments
        // are the fingerprint, so a re-run that calls something else at this position is refused.
        return bracket(store, say, `${call.name} → ${name}`, anchor, () =>
          opId
            ? {
                logicalOpId: `${opId}#${n}`,
                argsFingerprint: argsFingerprint(JSON.stringify({ tool: name, args: argumentsJson })),
              }
            : "its outer call has no receipt",
        );
      };
      let result: ToolResultBody;
      try {
        result = await inner.run(call, { ...ctx, beforeRun: outer.beforeRun, innerReceipt });
      } catch (err) {
        outer.fail(err);
        throw err;
      }
      outer.settle(result);
      return result;
    },
  };
}

type Say = (level: "info" | "warn", message: string) => void;
type Anchor = { sessionId: string; step: number; tool: string; nodeId: string; callId: string };

/** One receipt's life: begun at the gate (or refused), then completed, failed or left open. */
function bracket(
  store: ReceiptStore,
  say: Say,
  label: string,
  anchor: Anchor,
  op: () => { logicalOpId: string; argsFingerprint: string } | string,
): InnerReceipt {
  let receiptId: string | undefined;
  return {
    beforeRun: async (filesBefore?: FileBefore[]): Promise<ExecuteGate> => {
      const found = op();
      if (typeof found === "string") return refuse(label, found);
      let begun: ReturnType<ReceiptStore["beginEffect"]>;
      try {
        // The files it writes, as they are now, go with a new receipt (`/rewind` restores them).
        begun = store.beginEffect({ ...anchor, ...found, ...(filesBefore?.length ? { filesBefore } : {}) });
      } catch (err) {
        return refuse(label, `no effect receipt could be begun (${(err as Error).message})`);
      }
      switch (begun.kind) {
        case "replay":
          say("info", `${label}: already ran (receipt ${begun.effect.id}); replaying its stored result`);
          return { run: false, result: replayBody(begun.effect) };
        case "uncertain":
          say("warn", `${label}: receipt ${begun.effect.id} is unfinished; not running it again`);
          return { run: false, result: uncertainBody(begun.effect) };
        case "resolved":
          return { run: false, result: resolvedBody(begun.effect) };
        case "started":
          receiptId = begun.effect.id;
          return { run: true };
      }
    },
    settle: (result) => {
      if (!receiptId) return;
      if (result.uncertain) {
        // Aborted and still running: never recorded as finished. The receipt stays open, so a
        // resume reports effect_outcome_uncertain instead of assuming (D4).
        say("warn", `${label}: did not stop when the turn was aborted; receipt ${receiptId} stays open`);
        return;
      }
      try {
        store.completeEffect(receiptId, result);
      } catch (err) {
        // Settled by a person while it ran (or the store failed): the tool did run, so its
        // result still goes to the model; the receipt keeps what the person decided.
        say("warn", `${label}: receipt ${receiptId} could not be completed: ${(err as Error).message}`);
      }
    },
    fail: (err) => {
      if (!receiptId) return;
      try {
        store.failEffect(receiptId, String(err));
      } catch {
        // The receipt stays 'started' and surfaces as uncertain on resume: the safe side.
      }
    },
  };
}

function refuse(label: string, why: string): ExecuteGate {
  return {
    run: false,
    result: { content: JSON.stringify({ error: `not executed: ${label} ${why}` }), isError: true },
  };
}
