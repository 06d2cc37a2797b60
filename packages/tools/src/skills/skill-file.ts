// One SKILL.md (the Agent Skills folder format, SPEC K4): YAML front matter between `---` lines,
// then the body. Front matter: `name` (lowercase letters, digits, hyphens; the folder's name),
// `description`, and optionally `allowed_tools` (or `allowed-tools`) and `platforms`; other keys
// (license, metadata, …) are kept but unused. A problem is reported as `path:line: message`.
import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import { z } from "zod";

export const SKILL_FILE = "SKILL.md";

// Loaded on the first skill parsed: a start with no skills never pays for yaml's ~70 modules
// (issue 15 start-up). `require` because parsing is synchronous; yaml's "node" export is CommonJS.
let yamlLib: typeof Yaml | undefined;
const yaml = (): typeof Yaml => (yamlLib ??= createRequire(import.meta.url)("yaml") as typeof Yaml);

const toolList = z
  .union([z.array(z.string().min(1)), z.string()])
  .transform((v) => (typeof v === "string" ? v.split(/[\s,]+/).filter(Boolean) : v));

const frontMatterSchema = z.looseObject({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "lowercase letters, digits and hyphens, at most 64 characters"),
  description: z.string().trim().min(1, "must not be empty").max(1024, "at most 1,024 characters"),
  allowed_tools: toolList.optional(),
  "allowed-tools": toolList.optional(),
  platforms: z.array(z.string().min(1)).optional(),
});

export interface SkillFile {
  name: string;
  description: string;
  allowedTools?: string[];
  platforms?: string[];
  body: string;
}

export type ParsedSkill = { ok: true; skill: SkillFile } | { ok: false; error: string };

export function parseSkillFile(path: string, text: string, folderName?: string): ParsedSkill {
  const source = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = source.split("\n");
  if (lines[0]?.trim() !== "---")
    return fail(path, 1, "no front matter: the file must start with a '---' line");
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (end < 0) return fail(path, 1, "the front matter has no closing '---' line");
  const yamlText = lines.slice(1, end).join("\n");
  const doc = yaml().parseDocument(yamlText, { prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = (yamlError.linePos?.[0]?.line ?? 1) + 1;
    return fail(path, line, `invalid YAML: ${yamlError.message.split("\n")[0]}`);
  }
  const parsed = frontMatterSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue?.path[0] ?? "");
    const at = key ? lines.slice(1, end).findIndex((l) => l.startsWith(`${key}:`)) : -1;
    const line = at >= 0 ? at + 2 : 1;
    return fail(path, line, `${key ? `'${key}': ` : ""}${issue?.message ?? "invalid front matter"}`);
  }
  const fm = parsed.data;
  if (folderName !== undefined && fm.name !== folderName) {
    const at = lines.findIndex((l) => l.startsWith("name:"));
    return fail(path, at >= 0 ? at + 1 : 1, `'name' is '${fm.name}' but the folder is '${folderName}'`);
  }
  const allowed = fm.allowed_tools ?? fm["allowed-tools"];
  return {
    ok: true,
    skill: {
      name: fm.name,
      description: fm.description.replace(/\s+/g, " "),
      ...(allowed ? { allowedTools: allowed } : {}),
      ...(fm.platforms ? { platforms: fm.platforms } : {}),
      body: lines
        .slice(end + 1)
        .join("\n")
        .trim(),
    },
  };
}

function fail(path: string, line: number, message: string): ParsedSkill {
  return { ok: false, error: `${path}:${line}: ${message}` };
}
