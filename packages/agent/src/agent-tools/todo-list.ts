// The per-session task list (SPEC T5). Held by the session's agents in memory and recovered from
// history: the last todo result in the conversation is the list as it stood.
import type { Message } from "@iris/llm";

export interface TodoItem {
  id: string;
  content: string;
  status: "pending" | "in_progress" | "done" | "cancelled";
}

export class TodoList {
  private items: TodoItem[] = [];

  static fromHistory(history: readonly Message[]): TodoList {
    const list = new TodoList();
    for (let i = history.length - 1; i >= 0; i--) {
      const m = history[i]!;
      if (m.role !== "tool" || m.toolName !== "todo" || m.isError || typeof m.content !== "string") continue;
      try {
        const parsed = JSON.parse(m.content) as { todos?: TodoItem[] };
        if (Array.isArray(parsed.todos)) {
          list.items = parsed.todos;
          break;
        }
      } catch {}
    }
    return list;
  }

  write(todos: TodoItem[] | undefined, merge: boolean): TodoItem[] {
    if (todos) {
      if (merge) {
        const byId = new Map(this.items.map((t) => [t.id, t]));
        for (const t of todos) byId.set(t.id, { ...byId.get(t.id), ...t });
        this.items = [...byId.values()];
      } else this.items = todos.map((t) => ({ ...t }));
    }
    return this.items;
  }

  summary(): string {
    const counts = { pending: 0, in_progress: 0, done: 0, cancelled: 0 };
    for (const t of this.items) counts[t.status] += 1;
    return `${this.items.length} items: ${counts.pending} pending, ${counts.in_progress} in progress, ${counts.done} done, ${counts.cancelled} cancelled`;
  }
}
