// Reads a command line into the simple commands the shell would run, with wrappers taken off:
// `sudo`, `env X=1`, `nohup`, `timeout 5`, `xargs`, … are stripped to the command they run;
// `sh -c '…'`, `bash -lc "…"` and `eval …` are opened and their script read as commands;
// `find … -exec cmd … ;` yields `cmd …`. Every command found anywhere — in a pipeline, in a
// substitution, in a shell script given inline or as a here-document — is returned flat.
import { posix } from "node:path";
import { lexCommand, type RawSegment, type Redirect } from "./lexer.js";

export interface Command {
  /** Basename of the program: `/usr/bin/rm` → `rm`. "" when only wrappers were given. */
  name: string;
  args: string[];
  redirects: Redirect[];
  pipeline: number;
  pipePos: number;
  /** Wrappers that were stripped, by name (sudo, env, xargs, find-exec, sh-c, …). */
  via: string[];
  /** Names of the commands inside this command's substitutions. */
  substitutedNames: string[];
  heredocs: string[];
  /** name + args joined by single spaces. */
  text: string;
  /** The working directory it runs in, when known (the caller's, or an earlier `cd` of the line). */
  cwd?: string;
}

export interface ParsedCommand {
  /** The command as given. */
  raw: string;
  /** Every shell text read: the command, then the scripts opened inside it (`sh -c '…'`, …). */
  texts?: string[];
  commands: Command[];
  /** Fork bombs and process floods found in the tree (flood.ts). */
  floods?: string[];
  /** Functions the line defines: calling one runs its body, which is judged where it is written. */
  functions?: string[];
}

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "busybox"]);
export const INTERPRETERS = new Set([
  "python",
  "python2",
  "python3",
  "perl",
  "ruby",
  "node",
  "nodejs",
  "php",
  "deno",
  "bun",
  "lua",
]);

const MAX_DEPTH = 8;

export function parseCommand(raw: string, home: string, cwd?: string): ParsedCommand {
  const commands: Command[] = [];
  collect(lexCommand(raw, home), { home, out: commands, depth: 0, via: [], cwd });
  return { raw, commands };
}

interface Walk {
  home: string;
  out: Command[];
  depth: number;
  via: string[];
  cwd: string | undefined;
}

function collect(segments: RawSegment[], walk: Walk): void {
  const { home, out, depth } = walk;
  let cwd = walk.cwd;
  for (const seg of segments) {
    const cmd = toCommand(seg, walk.via);
    if (cwd !== undefined) cmd.cwd = cwd;
    out.push(cmd);
    if (cmd.name === "cd")
      cwd = changeDirectory(
        cwd,
        cmd.args.find((a) => !a.startsWith("-")),
        home,
      );
    if (seg.substitutions.length)
      collect(seg.substitutions, { ...walk, depth: depth + 1, via: [...walk.via, "substitution"], cwd });
    if (depth >= MAX_DEPTH) continue;
    for (const script of innerScripts(cmd)) {
      const segments = lexCommand(script.text, home, depth + 1);
      const remote = script.via === "ssh";
      collect(segments, {
        home,
        out,
        depth: depth + 1,
        via: [...cmd.via, script.via],
        cwd: remote ? undefined : cwd,
      });
    }
    for (const inner of findExecCommands(cmd)) out.push(inner);
  }
}

export function changeDirectory(
  cwd: string | undefined,
  target: string | undefined,
  home: string,
): string | undefined {
  if (target === undefined) return home;
  if (target.startsWith("/")) return posix.normalize(target);
  if (target === "-" || cwd === undefined) return undefined;
  return posix.join(cwd, target);
}

export function toCommand(seg: RawSegment, via: string[]): Command {
  const { words, stripped } = stripWrappers(seg.words);
  const first = words[0] ?? "";
  const name = first.includes("/") ? (first.split("/").pop() ?? "") : first;
  const args = words.slice(1);
  return {
    name,
    args,
    redirects: seg.redirects,
    pipeline: seg.pipeline,
    pipePos: seg.pipePos,
    via: [...via, ...stripped],
    substitutedNames: seg.substitutions.map((s) => baseName(stripWrappers(s.words).words[0] ?? "")),
    heredocs: seg.heredocs,
    text: [name, ...args].join(" "),
  };
}

function baseName(word: string): string {
  return word.includes("/") ? (word.split("/").pop() ?? "") : word;
}

/** Options that take a value, per wrapper, so the value is not mistaken for the command. */
export const WRAPPERS: Record<string, Set<string>> = {
  sudo: new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group"]),
  doas: new Set(["-u", "-C"]),
  env: new Set(["-u", "-C", "-S", "--unset", "--chdir"]),
  nohup: new Set(),
  time: new Set(["-f", "-o"]),
  exec: new Set(["-a"]),
  command: new Set(),
  builtin: new Set(),
  nice: new Set(["-n"]),
  ionice: new Set(["-c", "-n", "-p"]),
  stdbuf: new Set(["-i", "-o", "-e"]),
  setsid: new Set(),
  unbuffer: new Set(),
  caffeinate: new Set(["-t", "-w"]),
  timeout: new Set(["-s", "-k", "--signal", "--kill-after"]),
  busybox: new Set(),
  toybox: new Set(),
  xargs: new Set([
    "-I",
    "-i",
    "-n",
    "-P",
    "-L",
    "-l",
    "-d",
    "-s",
    "-a",
    "-E",
    "-e",
    "--max-args",
    "--delimiter",
  ]),
};

function stripWrappers(input: string[]): { words: string[]; stripped: string[] } {
  let words = input;
  const stripped: string[] = [];
  for (let guard = 0; guard < 16; guard++) {
    const first = words[0];
    if (first === undefined) break;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) {
      words = words.slice(1);
      continue;
    }
    const name = baseName(first);
    const takesValue = WRAPPERS[name];
    if (!takesValue) break;
    // `env -S 'rm -rf x'`: the string is split into the command and its arguments.
    if (name === "env") {
      const at = words.findIndex((w) => w === "-S" || w.startsWith("--split-string") || /^-S./.test(w));
      if (at > 0) {
        const w = words[at] as string;
        const separate = w === "-S" || w === "--split-string";
        const value = separate
          ? (words[at + 1] ?? "")
          : w.startsWith("--")
            ? w.slice(w.indexOf("=") + 1)
            : w.slice(2);
        const split = value.split(/\s+/).filter(Boolean);
        words = [...words.slice(0, at), ...split, ...words.slice(at + (separate ? 2 : 1))];
        continue;
      }
    }
    // `command -v x` only looks a name up: x is not run.
    if (name === "command" && /^-[vV]$/.test(words[1] ?? "")) break;
    stripped.push(name);
    let i = 1;
    while (i < words.length) {
      const w = words[i] as string;
      if (w === "--") {
        i++;
        break;
      }
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) && name === "env") i++;
      else if (w.startsWith("-") && w.length > 1) i += takesValue.has(w) ? 2 : 1;
      else break;
    }
    // `timeout 5 cmd`: the duration comes before the command.
    if (name === "timeout" && words[i] !== undefined && /^\d/.test(words[i] as string)) i++;
    words = words.slice(i);
  }
  return { words, stripped };
}

/** Scripts a command runs from a string: `sh -c '…'`, `bash -lc "…"`, `eval …`, `sh <<EOF`. */
export function innerScripts(cmd: Command): { text: string; via: string }[] {
  const scripts: { text: string; via: string }[] = [];
  if (cmd.name === "eval") scripts.push({ text: cmd.args.join(" "), via: "eval" });
  if (SHELLS.has(cmd.name)) {
    const flagAt = cmd.args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a));
    if (flagAt !== -1) {
      const script = cmd.args.slice(flagAt + 1).find((a) => !a.startsWith("-"));
      if (script !== undefined) scripts.push({ text: script, via: "sh-c" });
    }
    for (const doc of cmd.heredocs) scripts.push({ text: doc, via: "heredoc" });
  }
  // `sudo -s <<< reboot`, `su - root <<EOF`: a shell of another user reads its input.
  const otherUsersShell =
    (cmd.name === "" && cmd.via.some((v) => v === "sudo" || v === "doas")) ||
    ((cmd.name === "su" || cmd.name === "runuser") && !cmd.args.some((a) => a === "-c" || a === "--command"));
  if (otherUsersShell) for (const doc of cmd.heredocs) scripts.push({ text: doc, via: "heredoc" });
  const remote = sshRemoteCommand(cmd);
  if (remote !== undefined) scripts.push({ text: remote, via: "ssh" });
  for (const text of optionCommands(cmd)) scripts.push({ text, via: `${cmd.name}-option` });
  return scripts;
}

/** Options whose value is a command the program runs (`tar --checkpoint-action=exec=…`, `git grep -O…`). */
const COMMAND_OPTIONS: Record<string, { long: string[]; short?: string }> = {
  tar: {
    long: [
      "--checkpoint-action",
      "--to-command",
      "--use-compress-program",
      "--info-script",
      "--new-volume-script",
      "--rsh-command",
      "--rmt-command",
    ],
    short: "-I",
  },
  git: { long: ["--open-files-in-pager", "--upload-pack", "--receive-pack", "--exec"], short: "-O" },
  rsync: { long: ["--rsh", "--rsync-path"], short: "-e" },
  sort: { long: ["--compress-program"] },
  rg: { long: ["--pre"] },
  ack: { long: ["--pager"] },
  zip: { long: ["--unzip-command"], short: "-TT" },
};

/** git config keys whose value is a command line git runs (an alias's `!…`, a pager, an editor, a helper). */
const GIT_COMMAND_KEY =
  /^(?:core\.(?:pager|editor|sshcommand|fsmonitor|askpass)|sequence\.editor|diff\.external|gpg\.(?:\w+\.)?program|credential\.(?:[^=]*\.)?helper|alias\.[^=]+|pager\.[^=]+|[^=]+\.(?:command|cmd|textconv|clean|smudge|process|driver))$/i;

function optionCommands(cmd: Command): string[] {
  const spec = COMMAND_OPTIONS[cmd.name];
  const out: string[] = [];
  if (cmd.name === "git")
    cmd.args.forEach((a, i) => {
      const m = cmd.args[i - 1] === "-c" ? /^([^=]+)=(.*)$/s.exec(a) : null;
      if (m && GIT_COMMAND_KEY.test(m[1] as string)) out.push((m[2] as string).replace(/^!/, ""));
    });
  if (spec) {
    cmd.args.forEach((a, i) => {
      const next = cmd.args[i + 1];
      for (const long of spec.long) {
        if (a === long && next !== undefined) out.push(next);
        else if (a.startsWith(`${long}=`)) out.push(a.slice(long.length + 1));
      }
      if (spec.short && a === spec.short && next !== undefined) out.push(next);
      else if (spec.short && a.startsWith(spec.short) && a.length > spec.short.length && !a.startsWith("--"))
        out.push(a.slice(spec.short.length));
    });
  }
  if (cmd.name === "ssh" || cmd.name === "scp" || cmd.name === "sftp")
    cmd.args.forEach((a, i) => {
      const value = a === "-o" ? (cmd.args[i + 1] ?? "") : a.startsWith("-o") ? a.slice(2) : "";
      const m = /^(?:ProxyCommand|LocalCommand|KnownHostsCommand)[=\s]+(.*)$/is.exec(value);
      if (m?.[1]) out.push(m[1]);
    });
  // `--checkpoint-action=exec=CMD`: the command follows `exec=`.
  return out.map((t) => t.replace(/^exec=/, "")).filter((t) => t.trim() !== "");
}

const SSH_OPTIONS_WITH_VALUE = new Set("bcDEeFIiJLlmOopQRSWw".split("").map((c) => `-${c}`));

/** `ssh [options] host command…` → the command, run on the other machine. */
function sshRemoteCommand(cmd: Command): string | undefined {
  if (cmd.name !== "ssh") return undefined;
  let i = 0;
  while (i < cmd.args.length && (cmd.args[i] as string).startsWith("-")) {
    i += SSH_OPTIONS_WITH_VALUE.has(cmd.args[i] as string) ? 2 : 1;
  }
  const rest = cmd.args.slice(i + 1);
  return rest.length ? rest.join(" ") : undefined;
}

/** `find … -exec rm -rf {} +` → the command `rm -rf {}`, marked as run by find. */
export function findExecCommands(cmd: Command): Command[] {
  if (cmd.name !== "find") return [];
  const found: Command[] = [];
  for (let i = 0; i < cmd.args.length; i++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(cmd.args[i] as string)) continue;
    const end = cmd.args.findIndex((a, j) => j > i && (a === ";" || a === "+"));
    const words = cmd.args.slice(i + 1, end === -1 ? undefined : end);
    const inner = toCommand(
      { words, redirects: [], pipeline: cmd.pipeline, pipePos: cmd.pipePos, substitutions: [], heredocs: [] },
      [...cmd.via, "find-exec"],
    );
    found.push(inner);
    if (end === -1) break;
    i = end;
  }
  return found;
}
