// The Agent of one turn, made from a session's parts (cheap, per message: everything expensive
// lives in the process and the session). Only the turn runner calls it, under the turn lease.
import type { Agent, ClientTools, FrontEnd } from "@iris/agent";
import { withAskBoard } from "../dashboard/ask-board.js";
import { assembleAgent } from "./session-agent.js";
import type { SessionParts } from "./session-parts.js";

export async function newTurnAgent(
  parts: SessionParts,
  frontEnd: FrontEnd,
  taskId: () => string,
  clientTools?: ClientTools,
): Promise<Agent> {
  const { profile, store, tools, cwd, source, workspace } = parts.opts;
  const { events, record, memory, tags } = parts;
  const session = record.row;
  // Questions also go to the ask board, where the dashboard answers them by request id.
  const asking = await withAskBoard(frontEnd, store, session.id, source);
  for (const r of memory.repairNotices.splice(0))
    events.emit("status", { level: r.outcome === "uncertain" ? "warn" : "info", message: r.message });
  const model = parts.models.client();
  return assembleAgent({
    runtime: parts.models.runtime,
    profile,
    store,
    cwd,
    events,
    frontEnd: asking,
    model,
    log: await record.logForTurn(),
    context: parts.context,
    box: {
      profile,
      store,
      cwd,
      frontEnd: asking,
      events,
      model,
      tools,
      menu: parts.prompt.menuForTurn(),
      workspace,
      skills: parts.prompt.skills,
      approvals: memory.approvals,
      todos: memory.todos,
      sessionId: session.id,
      slots: parts.childSlots,
      receipts: record.detached?.receipts ?? store,
      detached: record.detached,
      forward: (name, payload, identity) => tags.emit(name, payload, identity),
    },
    ...(clientTools ? { clientTools } : {}),
    systemPrompt: () => parts.systemPrompt(),
    ...(parts.opts.maxRounds !== undefined ? { maxRounds: parts.opts.maxRounds } : {}),
    // The task id tags this session's events while the turn runs.
    newTaskId: () => {
      // The previous turn has ended (one turn at a time): its `cd` ends with it.
      if (tags.taskId) workspace.cwds.clear(tags.taskId);
      tags.taskId = taskId();
      return tags.taskId;
    },
  });
}
