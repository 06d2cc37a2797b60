// `iris skills list|show NAME|install PATH` (SPEC K4): the profile's skills and the working
// directory's `.iris/skills`; install copies a skill folder (or a .tar.gz / .tgz of one) into the
// profile after checking its SKILL.md. Installed skills show in the next session.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { Profile } from "@iris/host";
import { parseSkillFile, projectSkillRoots, SKILL_FILE, SkillLibrary } from "@iris/tools";
import type { GlobalFlags } from "../flags.js";
import { formatSkillList } from "./skills-view.js";
import { withProfile } from "./with-records.js";

function library(profile: Profile): SkillLibrary {
  return new SkillLibrary({
    profile: profile.home.paths.skills,
    project: projectSkillRoots(process.cwd()),
  });
}

export function skillsList(flags: GlobalFlags): number {
  return withProfile(
    flags,
    (profile) => {
      const lib = library(profile);
      process.stdout.write(formatSkillList(lib));
      return lib.problems.length ? 1 : 0;
    },
    { readOnly: true },
  );
}

export function skillsShow(flags: GlobalFlags, name: string): number {
  return withProfile(
    flags,
    (profile) => {
      try {
        const view = library(profile).view(name);
        const files = view.files.length ? `\n\nfiles: ${view.files.join(", ")}` : "";
        process.stdout.write(`${view.content}${files}\n`);
        return 0;
      } catch (e) {
        process.stderr.write(`${(e as Error).message}\n`);
        return 1;
      }
    },
    { readOnly: true },
  );
}

export function skillsInstall(flags: GlobalFlags, path: string): number {
  return withProfile(flags, (profile) => {
    const source = resolve(path);
    let unpacked: string | undefined;
    try {
      let dir = source;
      if (!existsSync(source)) throw new Error(`${path}: no such file or folder`);
      if (statSync(source).isFile()) {
        if (!/\.(tar\.gz|tgz|tar)$/.test(source))
          throw new Error(`${path}: give a folder or a .tar.gz/.tgz of one`);
        unpacked = mkdtempSync(join(tmpdir(), "iris-skill-"));
        execFileSync("tar", ["-xf", source, "-C", unpacked], { stdio: ["ignore", "ignore", "pipe"] });
        dir = findSkillDir(unpacked);
      }
      const file = join(dir, SKILL_FILE);
      if (!existsSync(file)) throw new Error(`${path}: no ${SKILL_FILE} in it`);
      const parsed = parseSkillFile(file, readFileSync(file, "utf8"));
      if (!parsed.ok) throw new Error(parsed.error);
      const target = join(profile.home.paths.skills, parsed.skill.name);
      if (existsSync(target))
        throw new Error(`skill '${parsed.skill.name}' is installed already (${target})`);
      cpSync(dir, target, { recursive: true });
      process.stdout.write(`installed ${parsed.skill.name} into ${target} (it shows in the next session)\n`);
      return 0;
    } catch (e) {
      process.stderr.write(`${(e as Error).message}\n`);
      return 1;
    } finally {
      if (unpacked) rmSync(unpacked, { recursive: true, force: true });
    }
  });
}

/** A tarball holds SKILL.md at its top or in one folder. */
function findSkillDir(root: string): string {
  if (existsSync(join(root, SKILL_FILE))) return root;
  const dirs = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory());
  const only = dirs.length === 1 ? dirs[0] : undefined;
  if (only && existsSync(join(root, only.name, SKILL_FILE))) return join(root, only.name);
  throw new Error(`no ${SKILL_FILE} at the top of the archive or in its one folder (${basename(root)})`);
}
