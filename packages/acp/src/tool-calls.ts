// How an Iris tool call looks in the editor (ACP `tool_call`): its kind, a short title, the files
// it touches (so the editor can follow along) and, for edits, a diff the editor can render.
import { isAbsolute, resolve } from "node:path";

export type ToolKind =
  | "read"
  | "edit"
  | "delete"
  | "move"
  | "search"
  | "execute"
  | "think"
  | "fetch"
  | "switch_mode"
  | "other";

const KINDS: Record<string, ToolKind> = {
  read_file: "read",
  write_file: "edit",
  patch: "edit",
  search_files: "search",
  session_search: "search",
  terminal: "execute",
  process: "execute",
  todo: "think",
  memory: "think",
  clarify: "other",
  delegate_task: "think",
  web_fetch: "fetch",
  web_search: "fetch",
};

export function toolKindOf(name: string): ToolKind {
  return KINDS[name] ?? "other";
}

export interface ToolCallView {
  kind: ToolKind;
  title: string;
  locations: { path: string; line?: number }[];
  /** Diffs for edits: what the editor shows before the call runs. */
  diffs: { path: string; oldText: string | null; newText: string }[];
  rawInput: Record<string, unknown>;
}

function parseArgs(json: string): Record<string, unknown> {
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

function clip(s: string, max = 80): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/**
 * The editor's view of one call. `readOld` supplies a file's current text for write_file diffs
 * (undefined when the file does not exist yet).
 */
export function describeToolCall(
  name: string,
  argumentsJson: string,
  cwd: string,
  readOld: (absPath: string) => string | undefined = () => undefined,
): ToolCallView {
  const args = parseArgs(argumentsJson);
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(cwd, p));
  const path = str(args.path);
  const locations: ToolCallView["locations"] = [];
  const diffs: ToolCallView["diffs"] = [];
  let title = name;
  switch (name) {
    case "read_file": {
      if (path) {
        const line = typeof args.offset === "number" ? args.offset : undefined;
        locations.push({ path: abs(path), ...(line ? { line } : {}) });
        title = `Read ${path}`;
      }
      break;
    }
    case "write_file": {
      if (path) {
        locations.push({ path: abs(path) });
        diffs.push({
          path: abs(path),
          oldText: readOld(abs(path)) ?? null,
          newText: String(args.content ?? ""),
        });
        title = `Write ${path}`;
      }
      break;
    }
    case "patch": {
      if (path) {
        locations.push({ path: abs(path) });
        diffs.push({
          path: abs(path),
          oldText: String(args.old_string ?? ""),
          newText: String(args.new_string ?? ""),
        });
        title = `Edit ${path}`;
      }
      break;
    }
    case "search_files": {
      const pattern = str(args.pattern) ?? str(args.query) ?? "";
      title = `Search ${clip(pattern, 60)}${path ? ` in ${path}` : ""}`;
      if (path) locations.push({ path: abs(path) });
      break;
    }
    case "terminal": {
      const command = str(args.command);
      if (command) title = `Run ${clip(command)}`;
      break;
    }
    case "todo":
      title = "Update plan";
      break;
    case "delegate_task": {
      const goal = str(args.goal);
      if (goal) title = `Delegate: ${clip(goal, 60)}`;
      break;
    }
  }
  return { kind: toolKindOf(name), title, locations, diffs, rawInput: args };
}
