// Recursive deletes of /, the home folder or a system folder written in another language (T4):
// `python3 -c 'shutil.rmtree("/")'`, `perl -e 'system("rm -rf ~")'`, `node -e 'fs.rmSync("/",
// {recursive: true})'`. A hard block like the shell's own `rm -rf /`: code is read as text, so
// only the plain spellings are caught; whatever else the code does is asked about as inline code.
import { codeOf } from "./fork-code.js";
import type { ParsedCommand } from "./parse.js";
import { isProtectedRoot } from "./paths.js";

/** `rm -rf ROOT` inside a string of the code (handed to system, exec, popen, subprocess, …). */
const SHELL_RM =
  /\brm\s+(?:(?:-[A-Za-z]*[rR][A-Za-z]*|--recursive|-[A-Za-z]+|--[a-z-]+)\s+)*?(?:-[A-Za-z]*[rR][A-Za-z]*|--recursive)\s+(?:(?:-[A-Za-z]+|--[a-z-]+)\s+)*([^\s"'`;|&)}\]]+)/g;
/** Library calls that delete a tree, with their first argument as a plain string. */
const TREE_DELETE =
  /\b(?:rmtree|rm_rf|rm_r|remove_tree|rimraf(?:\.sync)?|rmSync|rmdirSync|removeSync|emptyDirSync|remove_dir_all|RemoveAll)\s*\(\s*(?:r?["'`]([^"'`]*)["'`]|(os\.path\.expanduser\(\s*["']~\/?["']\s*\)|(?:pathlib\.)?Path\.home\(\)|Path\(\s*["']~\/?["']\s*\)\.expanduser\(\)|(?:require\(\s*["'](?:node:)?os["']\s*\)|os)\.homedir\(\)|homedir\(\)|process\.env\.HOME\b|process\.env\[["']HOME["']\]|Dir\.home|\$ENV\{HOME\}|os\.environ\[["']HOME["']\]|os\.getenv\(\s*["']HOME["']\s*\)|ENV\[["']HOME["']\]))/g;

function isRoot(target: string, home: string): boolean {
  const t = target
    .replace(/^~(?=\/|$)/, home)
    .replace(/^\$\{?HOME\}?|^\$ENV\{HOME\}?|^%(?:USERPROFILE|HOME)%/, home)
    .replace(/\/\*$/, "/")
    .replace(/(.)\/+$/, "$1");
  return isProtectedRoot(t === "" ? "/" : t, home);
}

/** Whether code in the line deletes /, the home folder or a system folder recursively. */
export function codeDeletesRoot(parsed: ParsedCommand, home: string): boolean {
  const code = codeOf(parsed);
  if (!code) return false;
  return code.some((text) => {
    for (const m of text.matchAll(SHELL_RM)) if (isRoot(m[1] as string, home)) return true;
    for (const m of text.matchAll(TREE_DELETE)) if (m[2] || isRoot(m[1] as string, home)) return true;
    return false;
  });
}
