// The four agent-level tools are answered here, before the registry (SPEC T5): they need the
// session's state. Everything else passes through to the inner toolbox unchanged.
import { jsonTooDeep, type ToolCallPart } from "@iris/llm";
import { delegateTaskParams, memoryParams, sessionSearchParams, todoParams } from "@iris/tools";
import type { z } from "zod";
import type { ToolBox, ToolRunContext } from "../ports.js";
import type { MemoryFiles } from "./memory-files.js";
import type { TodoList } from "./todo-list.js";

export interface SearchHit {
  sessionId: string;
  snippet: string;
}

export interface AgentToolServices {
  todos: TodoList;
  memory?: MemoryFiles;
  /** Search of earlier sessions; the caller excludes the current one. */
  searchSessions?(query: string, limit: number): Promise<SearchHit[]>;
  delegate?(args: z.output<typeof delegateTaskParams>, ctx: ToolRunContext): Promise<Result>;
}

type Result = { content: string; isError: boolean };

export function withAgentTools(inner: ToolBox, services: AgentToolServices): ToolBox {
  const handlers: Record<string, (argsJson: string, ctx: ToolRunContext) => Promise<Result> | Result> = {
    todo: (a) =>
      withArgs(todoParams, a, (args) => {
        const items = services.todos.write(args.todos, args.merge ?? false);
        return ok({ todos: items, summary: services.todos.summary() });
      }),
    memory: (a) =>
      withArgs(memoryParams, a, (args) => {
        if (!services.memory) return fail("memory is not enabled for this profile");
        try {
          return ok({ result: services.memory.apply(args.action, args.target, args.content, args.old_text) });
        } catch (err) {
          return fail((err as Error).message);
        }
      }),
    session_search: (a) =>
      withArgs(sessionSearchParams, a, async (args) => {
        if (!services.searchSessions) return fail("session search is not available here");
        const hits = await services.searchSessions(args.query, args.limit ?? 10);
        return ok({ results: hits, count: hits.length });
      }),
    delegate_task: (a, ctx) =>
      withArgs(delegateTaskParams, a, (args) =>
        services.delegate ? services.delegate(args, ctx) : fail("delegation is not available here"),
      ),
  };
  return {
    specs: () => inner.specs(),
    traits: (name) => inner.traits(name),
    run: async (call: ToolCallPart, ctx: ToolRunContext) => {
      const handler = handlers[call.name];
      // Only when offered (T2, L10): a child without delegate_task on its menu cannot delegate,
      // whatever the model calls; the inner toolbox answers an unknown tool.
      if (!handler || !inner.specs().some((s) => s.name === call.name)) return inner.run(call, ctx);
      // Answered here rather than by the dispatcher, so the receipt gate is ours to call (D4).
      if (inner.traits(call.name)?.effect !== "read" && ctx.beforeRun) {
        const gate = await ctx.beforeRun();
        if (!gate.run) return gate.result;
      }
      return handler(call.argumentsJson, ctx);
    },
  };
}

function withArgs<S extends z.ZodType>(
  schema: S,
  argsJson: string,
  fn: (args: z.output<S>) => Promise<Result> | Result,
): Promise<Result> | Result {
  let raw: unknown;
  // Refused without recursion first, as the dispatcher does (E4): zod walks what it is given.
  const deep = jsonTooDeep(argsJson);
  if (deep) return fail(`the arguments are refused: ${deep}; send a flatter JSON object`);
  try {
    raw = argsJson.trim() ? JSON.parse(argsJson) : {};
  } catch {
    return fail(`arguments are not valid JSON: ${argsJson.slice(0, 200)}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(`invalid argument ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`);
  }
  return fn(parsed.data);
}

const ok = (value: unknown): Result => ({ content: JSON.stringify(value), isError: false });
const fail = (message: string): Result => ({ content: JSON.stringify({ error: message }), isError: true });
