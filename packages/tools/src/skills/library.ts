// The skills a session can use (SPEC K4): `skills/<name>/SKILL.md` in the profile, then the
// project's: `.iris/skills`, `.claude/skills` and `.agents/skills` (where users of other agents
// keep them) in the working directory and the folders above it up to the repository's root (a
// project skill wins over a profile skill of the same name, the nearest folder over farther ones). The index is read once per session (S2: a skill added or edited now
// shows in the next session's prompt); skill_view reads a body and the files beside it on demand.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { atomicWriteFile } from "../fs/atomic-write.js";
import { parseSkillFile, SKILL_FILE, type SkillFile } from "./skill-file.js";

export type SkillScope = "profile" | "project";

export interface SkillInfo {
  name: string;
  description: string;
  scope: SkillScope;
  /** The skill's folder. */
  dir: string;
  allowedTools?: string[];
  platforms?: string[];
}

export interface SkillRoots {
  /** The profile's skills folder (where skill_manage and `iris skills install` write). */
  profile: string;
  /** The project's skill folders, the one that wins first (projectSkillRoots). */
  project?: string | readonly string[];
}

const PROJECT_SKILL_DIRS = [".iris/skills", ".claude/skills", ".agents/skills"];

/** The project skill folders of `cwd`, the one that wins first: nearest folder, then `.iris` first. */
export function projectSkillRoots(cwd: string): string[] {
  const roots: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const d of PROJECT_SKILL_DIRS) roots.push(join(dir, d));
    if (existsSync(join(dir, ".git")) || dirname(dir) === dir) break;
  }
  return roots;
}

const projectRoots = (roots: SkillRoots): readonly string[] =>
  roots.project === undefined ? [] : typeof roots.project === "string" ? [roots.project] : roots.project;

const MAX_FILES_LISTED = 100;

export class SkillLibrary {
  readonly skills: SkillInfo[];
  /** Invalid SKILL.md files, as `path:line: message`; they are skipped. */
  readonly problems: string[];

  constructor(
    readonly roots: SkillRoots,
    /** Skills whose `platforms` leave this one out are not offered. */
    readonly platform?: string,
  ) {
    const found = new Map<string, SkillInfo>();
    const problems: string[] = [];
    const scan = (root: string | undefined, scope: SkillScope) => {
      if (!root || !existsSync(root)) return;
      for (const entry of readdirSync(root, { withFileTypes: true }).sort((a, b) => cmp(a.name, b.name))) {
        if (!entry.isDirectory()) continue;
        const file = join(root, entry.name, SKILL_FILE);
        if (!existsSync(file)) continue;
        const parsed = parseSkillFile(file, readFileSync(file, "utf8"), entry.name);
        if (!parsed.ok) {
          problems.push(parsed.error);
          continue;
        }
        const s = parsed.skill;
        if (platform && s.platforms && !s.platforms.includes(platform)) continue;
        found.set(s.name, { ...infoOf(s), scope, dir: join(root, entry.name) });
      }
    };
    scan(roots.profile, "profile");
    // Farthest first: a nearer folder's skill of the same name replaces it.
    for (const root of [...projectRoots(roots)].reverse()) scan(root, "project");
    this.skills = [...found.values()].sort((a, b) => cmp(a.name, b.name));
    this.problems = problems;
  }

  get(name: string): SkillInfo | undefined {
    return this.skills.find((s) => s.name === name);
  }

  /** The body of SKILL.md (or of `file`, a path inside the skill's folder) and the files beside it. */
  view(name: string, file?: string): { name: string; file: string; content: string; files: string[] } {
    const skill = this.get(name);
    if (!skill) throw new Error(`no skill '${name}'; skills_list shows the skills there are`);
    const target = file ? insideDir(skill.dir, file) : join(skill.dir, SKILL_FILE);
    if (!existsSync(target) || !statSync(target).isFile())
      throw new Error(`'${file}' is not a file of skill '${name}'`);
    const text = readFileSync(target, "utf8");
    const content = file ? text : bodyOf(target, text, name);
    return { name, file: relative(skill.dir, target), content, files: listFiles(skill.dir) };
  }

  /** Writes SKILL.md of a profile skill (create or edit); the text must parse. */
  async write(action: "create" | "edit", name: string, content: string): Promise<string> {
    const existing = this.findOnDisk(name);
    if (action === "create" && existing) throw new Error(`skill '${name}' exists already; use action 'edit'`);
    if (action === "edit" && !existing) throw new Error(`no skill '${name}' to edit; use action 'create'`);
    const dir = existing ?? join(this.roots.profile, name);
    const file = join(dir, SKILL_FILE);
    const parsed = parseSkillFile(file, content, name);
    if (!parsed.ok) throw new Error(parsed.error);
    await atomicWriteFile(file, content.endsWith("\n") ? content : `${content}\n`);
    return file;
  }

  delete(name: string): string {
    const dir = this.findOnDisk(name);
    if (!dir) throw new Error(`no skill '${name}' to delete`);
    rmSync(dir, { recursive: true, force: true });
    return dir;
  }

  /** The folder of a skill as it is on disk now (a skill made this session included). */
  private findOnDisk(name: string): string | undefined {
    if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name))
      throw new Error(`'${name}' is not a skill name (lowercase letters, digits and hyphens)`);
    for (const root of [...projectRoots(this.roots), this.roots.profile]) {
      if (root && existsSync(join(root, name, SKILL_FILE))) return join(root, name);
    }
    return undefined;
  }
}

function infoOf(s: SkillFile): Omit<SkillInfo, "scope" | "dir"> {
  return {
    name: s.name,
    description: s.description,
    ...(s.allowedTools ? { allowedTools: s.allowedTools } : {}),
    ...(s.platforms ? { platforms: s.platforms } : {}),
  };
}

function bodyOf(path: string, text: string, name: string): string {
  const parsed = parseSkillFile(path, text, name);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.skill.body;
}

function insideDir(dir: string, file: string): string {
  const target = resolve(dir, file);
  if (target !== dir && !target.startsWith(dir + sep))
    throw new Error(`'${file}' is outside the skill's folder`);
  return target;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => cmp(a.name, b.name))) {
      if (out.length >= MAX_FILES_LISTED) return;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && p !== join(dir, SKILL_FILE)) out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
