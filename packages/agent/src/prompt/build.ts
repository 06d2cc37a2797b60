// The frozen system prompt (SPEC S1–S3). Pure: no clock, no files, no environment — the same
// inputs give the same bytes, so a new Agent object per message keeps prompt-cache hits (U5).
// Layers are ordered by how often they change (a cache matches from the front):
// stable (identity, tool guidance, skills, environment) → context (caller message, project file)
// → volatile (memory, user profile, memory provider, model, date last).
import { toolGuidance } from "./guidance.js";
import { DEFAULT_IDENTITY, DEFAULT_SUBAGENT_IDENTITY } from "./identity.js";
import { capWithMarker, groupDigits } from "./truncate.js";
import type { PromptInputs, PromptLayers } from "./types.js";

export const PROJECT_CONTEXT_MAX_CHARS = 20_000;
const SKILL_DESCRIPTION_MAX = 200;
/** The whole skills index stays under this many characters; the rest is named by count only. */
export const SKILLS_INDEX_MAX_CHARS = 4000;

/** Line endings and trailing blanks differ between editors; they must not change the prompt. */
function clean(text: string | undefined): string {
  if (text === undefined) return "";
  return text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+$/gm, "")
    .trim();
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

function joinBlocks(blocks: readonly string[]): string {
  return blocks.filter((b) => b.length > 0).join("\n\n");
}

function skillsIndex(inputs: PromptInputs): string {
  if (inputs.skills.length === 0) return "";
  const entries = [...inputs.skills]
    .map((s) => ({ name: oneLine(s.name, 80), description: oneLine(s.description, SKILL_DESCRIPTION_MAX) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const how = inputs.toolNames.includes("skill_view")
    ? "When a skill matches the task, read it with skill_view before you start."
    : "When a skill matches the task, follow its instructions.";
  const lines = ["# Skills", how];
  let used = lines.join("\n").length;
  let shown = 0;
  for (const s of entries) {
    const line = `- ${s.name}: ${s.description}`;
    if (used + line.length + 1 > SKILLS_INDEX_MAX_CHARS - 80) break;
    lines.push(line);
    used += line.length + 1;
    shown++;
  }
  const rest = entries.length - shown;
  if (rest > 0)
    lines.push(`(${rest} more skill${rest === 1 ? "" : "s"} not listed here; skills_list shows them all.)`);
  return lines.join("\n");
}

function environment(inputs: PromptInputs): string {
  const env = inputs.environment;
  const lines = ["# Environment", `Operating system: ${env.os}`];
  if (env.shell) lines.push(`Shell: ${env.shell}`);
  lines.push(`Working directory: ${env.cwd}`);
  if (env.workspace)
    lines.push(`Workspace: ${env.workspace} (the terminal and file tools run and read there)`);
  return lines.join("\n");
}

function snapshot(title: string, text: string | undefined, limit: number | undefined): string {
  const body = clean(text);
  if (!body) return "";
  const use = limit ? ` (${groupDigits(body.length)} of ${groupDigits(limit)} characters used)` : "";
  return `# ${title}, as of session start${use}\n${body}`;
}

export function buildSystemPromptLayers(inputs: PromptInputs): PromptLayers {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(inputs.date)) {
    throw new Error(
      `buildSystemPrompt: date must be YYYY-MM-DD (date only), got ${JSON.stringify(inputs.date)}`,
    );
  }
  const identity = inputs.subagent ? DEFAULT_SUBAGENT_IDENTITY : clean(inputs.identity) || DEFAULT_IDENTITY;
  const stable = joinBlocks([
    identity,
    toolGuidance(inputs.toolNames),
    skillsIndex(inputs),
    environment(inputs),
  ]);

  let context = "";
  if (!inputs.subagent) {
    const project = inputs.projectContext;
    const projectBlock = project
      ? `# Project context (from ${project.path})\n${capWithMarker(
          clean(project.content),
          inputs.projectContextMaxChars ?? PROJECT_CONTEXT_MAX_CHARS,
          project.path,
        )}`
      : "";
    context = joinBlocks([clean(inputs.callerSystemMessage), projectBlock]);
  }

  const volatile = joinBlocks([
    snapshot("Memory (your notes)", inputs.memory, inputs.memoryLimits?.memory),
    snapshot("User profile", inputs.user, inputs.memoryLimits?.user),
    clean(inputs.memoryProviderBlock),
    // The date goes last: it is the part that changes most often between sessions.
    `Model: ${inputs.model} (provider: ${inputs.provider})\nConversation started: ${inputs.date}`,
  ]);
  return { stable, context, volatile };
}

/** The whole prompt: the layers joined in order, empty ones left out. */
export function buildSystemPrompt(inputs: PromptInputs): string {
  const { stable, context, volatile } = buildSystemPromptLayers(inputs);
  return joinBlocks([stable, context, volatile]);
}
