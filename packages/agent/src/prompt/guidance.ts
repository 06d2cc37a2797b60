// Tool-use guidance, one line per tool, given only for tools the session actually offers (a line
// about a missing tool invites calls to it). The table order is the prompt order, whatever order
// the caller lists its tools in, so the text is stable.

const GENERAL =
  "Use your tools to find things out and to act instead of guessing. Check a tool's result before relying on it, and report failures honestly.";

const BY_TOOL: readonly (readonly [string, string])[] = [
  ["terminal", "terminal: run shell commands; prefer non-interactive flags and keep output short."],
  ["process", "process: watch or stop background commands started with the terminal tool."],
  ["read_file", "read_file: read a file before changing it."],
  ["search_files", "search_files: find files and text instead of listing folders by hand."],
  ["write_file", "write_file: create or replace whole files."],
  ["patch", "patch: make targeted edits to existing files."],
  ["web_search", "web_search: look up current information; cite what you use."],
  ["web_extract", "web_extract: read the content of a web page."],
  ["todo", "todo: keep a task list for multi-step work and update it as you go."],
  [
    "memory",
    "memory: save durable facts about the user and the work; keep entries short, they have a size limit.",
  ],
  ["session_search", "session_search: search earlier conversations when the user refers to past work."],
  [
    "delegate_task",
    "delegate_task: hand a self-contained subtask to a subagent; give it all the context it needs.",
  ],
  ["clarify", "clarify: ask the user only when you cannot proceed without an answer."],
  ["skill_view", "skill_view: read a skill's instructions before following it."],
];

export function toolGuidance(toolNames: readonly string[]): string {
  if (toolNames.length === 0) return "";
  const present = new Set(toolNames);
  const lines = BY_TOOL.filter(([name]) => present.has(name)).map(([, line]) => `- ${line}`);
  return ["# Tool use", GENERAL, ...lines].join("\n");
}
