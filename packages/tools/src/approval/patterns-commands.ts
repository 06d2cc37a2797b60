// Dangerous patterns about programs: databases, git, services, processes, containers,
// publishing, and scripts piped into a shell (T4, hermes-agent-facts §6.5).
import { hasFlag, operands } from "./args.js";
import { type Command, INTERPRETERS, type ParsedCommand, SHELLS } from "./parse.js";
import { type CommandRule, perCommand } from "./rule.js";

const SQL_CLIENTS = new Set([
  "psql",
  "mysql",
  "mariadb",
  "sqlite3",
  "sqlite",
  "duckdb",
  "sqlcmd",
  "clickhouse-client",
  "cockroach",
  "pgcli",
  "mycli",
  "litecli",
  "usql",
]);

/** SQL statements a command sends to a database client (arguments and here-documents). */
function sqlStatements(parsed: ParsedCommand): string[] {
  if (!parsed.commands.some((c) => SQL_CLIENTS.has(c.name))) return [];
  const text = [parsed.raw, ...parsed.commands.flatMap((c) => c.heredocs)].join(";");
  return text.split(";").map((s) => s.replace(/\s+/g, " ").trim());
}

function sqlRule(key: string, description: string, test: (statement: string) => boolean): CommandRule {
  return { key, description, test: (parsed) => sqlStatements(parsed).some(test) };
}

const DOWNLOADERS = new Set(["curl", "wget", "fetch", "http", "https", "aria2c"]);
const RUNNERS = new Set([...SHELLS, ...INTERPRETERS, "source", "."]);

/** `curl … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`. */
function runsDownloadedScript(parsed: ParsedCommand): boolean {
  for (const c of parsed.commands) {
    if (!RUNNERS.has(c.name)) continue;
    if (c.substitutedNames.some((n) => DOWNLOADERS.has(n))) return true;
    if (c.pipePos > 0) {
      const earlier = parsed.commands.filter((d) => d.pipeline === c.pipeline && d.pipePos < c.pipePos);
      if (earlier.some((d) => DOWNLOADERS.has(d.name))) return true;
    }
  }
  return false;
}

/** Text piped into a shell or interpreter that reads its program from stdin. */
function pipesIntoShell(parsed: ParsedCommand): boolean {
  return parsed.commands.some(
    (c) => c.pipePos > 0 && RUNNERS.has(c.name) && operands(c.args).filter((a) => a !== "-").length === 0,
  );
}

/** `git [-C dir] [-c k=v] sub args…` → sub and its args. */
function gitSub(c: Command): { sub: string; args: string[] } | undefined {
  if (c.name !== "git") return undefined;
  let i = 0;
  while (i < c.args.length && (c.args[i] as string).startsWith("-")) {
    const a = c.args[i] as string;
    i += a === "-C" || a === "-c" || a === "--git-dir" || a === "--work-tree" ? 2 : 1;
  }
  const sub = c.args[i];
  return sub === undefined ? undefined : { sub, args: c.args.slice(i + 1) };
}

function git(test: (sub: string, args: string[]) => boolean): (c: Command) => boolean {
  return (c) => {
    const g = gitSub(c);
    return g !== undefined && test(g.sub, g.args);
  };
}

function forcesKill(args: readonly string[]): boolean {
  return args.some((a, i) => {
    if (/^-(?:9|KILL|SIGKILL)$/i.test(a)) return true;
    const next = args[i + 1] ?? "";
    return (a === "-s" || a === "--signal") && /^(?:9|KILL|SIGKILL)$/i.test(next);
  });
}

/** docker [compose] subcommand and the rest. */
function dockerSub(c: Command): string[] | undefined {
  if (c.name === "docker-compose") return ["compose", ...c.args];
  if (c.name !== "docker" && c.name !== "podman") return undefined;
  return c.args.filter((a, i) => !(i === 0 && a.startsWith("-")));
}

const SCRIPT_SIDE_EFFECTS =
  /\b(?:os\.system|os\.remove|os\.unlink|os\.rmdir|shutil\.rmtree|subprocess|child_process|execSync|spawnSync|rmSync|unlinkSync|rmdirSync|system\s*\(|exec\s*\(|unlink\s*\(|rmtree)/;

/** xargs -P N / parallel -j N with N over this: a process flood in all but name (0 is a hard block). */
const MAX_PARALLEL = 32;
const PARALLEL_COUNT =
  /\b(?:xargs|parallel)\b[^|;&\n]*?\s(?:-P\s*|--max-procs[= ]|-j\s*|--jobs[= ])(\d+)(?:\s|$)/g;

function manyProcesses(parsed: ParsedCommand): boolean {
  return (parsed.texts ?? [parsed.raw]).some((t) =>
    [...t.matchAll(PARALLEL_COUNT)].some((m) => Number(m[1]) > MAX_PARALLEL),
  );
}

export const COMMAND_PATTERNS: readonly CommandRule[] = [
  {
    key: "many_processes",
    description: `starts more than ${MAX_PARALLEL} processes at once (xargs -P, parallel -j)`,
    test: manyProcesses,
  },
  sqlRule("sql_drop", "drops a database object (DROP TABLE/DATABASE/SCHEMA)", (s) =>
    /\bdrop\s+(?:table|database|schema|view|index|user|role|collection)\b/i.test(s),
  ),
  sqlRule("sql_truncate", "empties a table (TRUNCATE)", (s) => /\btruncate\s+(?:table\s+)?[\w."`]+/i.test(s)),
  sqlRule(
    "sql_delete_without_where",
    "deletes every row of a table (DELETE without WHERE)",
    (s) => /\bdelete\s+from\b/i.test(s) && !/\bwhere\b/i.test(s),
  ),
  sqlRule(
    "sql_update_without_where",
    "changes every row of a table (UPDATE without WHERE)",
    (s) => /\bupdate\s+[\w."`]+\s+set\b/i.test(s) && !/\bwhere\b/i.test(s),
  ),
  perCommand(
    "datastore_flush",
    "wipes a data store (redis FLUSHALL/FLUSHDB, mongo dropDatabase)",
    (c) =>
      (c.name === "redis-cli" && c.args.some((a) => /^flush(?:all|db)$/i.test(a))) ||
      ((c.name === "mongo" || c.name === "mongosh") && /dropDatabase|\.drop\(\)/.test(c.text)),
  ),
  {
    key: "pipe_remote_to_shell",
    description: "runs a downloaded script (curl | sh)",
    test: runsDownloadedScript,
  },
  {
    key: "pipe_to_shell",
    description: "pipes text into a shell or interpreter to run it",
    test: pipesIntoShell,
  },
  perCommand(
    "inline_script_side_effects",
    "runs inline code that deletes files or starts commands (python -c, node -e, perl -e)",
    (c) =>
      INTERPRETERS.has(c.name) &&
      c.args.some((a) => /^-[A-Za-z]*[ce]$/.test(a)) &&
      SCRIPT_SIDE_EFFECTS.test(c.args.join(" ")),
  ),
  perCommand(
    "git_force_push",
    "force-pushes, overwriting remote history (git push --force/-f/--force-with-lease, +ref)",
    git(
      (sub, args) =>
        sub === "push" &&
        (hasFlag(args, "f", "--force") ||
          args.some(
            (a) => a.startsWith("--force-with-lease") || a === "--force-if-includes" || a === "--mirror",
          ) ||
          operands(args).some((a) => a.startsWith("+"))),
    ),
  ),
  perCommand(
    "git_delete_remote_branch",
    "deletes a branch or tag on the remote (git push --delete, :ref)",
    git(
      (sub, args) =>
        sub === "push" && (hasFlag(args, "d", "--delete") || operands(args).some((a) => /^:[^/]/.test(a))),
    ),
  ),
  perCommand(
    "git_reset_hard",
    "throws away uncommitted changes (git reset --hard)",
    git((sub, args) => sub === "reset" && args.includes("--hard")),
  ),
  perCommand(
    "git_clean_force",
    "deletes untracked files (git clean -f)",
    git((sub, args) => sub === "clean" && hasFlag(args, "f", "--force")),
  ),
  perCommand(
    "git_branch_force_delete",
    "deletes a branch even if unmerged (git branch -D)",
    git(
      (sub, args) =>
        sub === "branch" &&
        (hasFlag(args, "D") || (hasFlag(args, "d", "--delete") && hasFlag(args, "f", "--force"))),
    ),
  ),
  perCommand("service_control", "stops, restarts or disables a system service", (c) => {
    if (c.name === "systemctl") {
      return operands(c.args).some((a) =>
        [
          "stop",
          "restart",
          "disable",
          "mask",
          "kill",
          "isolate",
          "try-restart",
          "reload-or-restart",
        ].includes(a),
      );
    }
    if (c.name === "service") return ["stop", "restart", "force-reload"].includes(c.args[1] ?? "");
    if (c.name === "launchctl")
      return ["unload", "bootout", "stop", "remove", "kill"].includes(c.args[0] ?? "");
    return false;
  }),
  perCommand("kill_force", "force-kills processes (kill -9, pkill -9, killall -KILL)", (c) => {
    if (c.name === "kill" || c.name === "pkill" || c.name === "killall") return forcesKill(c.args);
    return false;
  }),
  perCommand(
    "docker_destroy",
    "force-removes containers, images or volumes (docker rm -f, prune, down -v)",
    (c) => {
      const d = dockerSub(c);
      if (!d) return false;
      const [a, b] = d;
      if ((a === "rm" || a === "rmi") && hasFlag(d.slice(1), "f", "--force")) return true;
      if (d.includes("prune")) return true;
      if (a === "volume" && (b === "rm" || b === "remove")) return true;
      return a === "compose" && d.includes("down") && hasFlag(d, "v", "--volumes");
    },
  ),
  perCommand(
    "docker_stop",
    "stops or restarts running containers (docker stop/kill/restart, compose down)",
    (c) => {
      const d = dockerSub(c);
      if (!d) return false;
      const [a] = d;
      if (a === "stop" || a === "kill" || a === "restart") return true;
      return a === "compose" && d.some((x) => ["down", "stop", "kill", "restart"].includes(x));
    },
  ),
  perCommand(
    "package_publish",
    "publishes a package to a public registry (npm publish, cargo publish, twine upload)",
    (c) => {
      if (["npm", "pnpm", "yarn", "bun", "cargo", "gem", "poetry"].includes(c.name)) {
        return c.args.includes("publish") || (c.name === "gem" && c.args[0] === "push");
      }
      return c.name === "twine" && c.args[0] === "upload";
    },
  ),
  perCommand(
    "infra_destroy",
    "deletes cloud or cluster resources (kubectl delete, terraform destroy, helm uninstall)",
    (c) => {
      if (c.name === "kubectl" || c.name === "oc") return c.args.includes("delete");
      if (c.name === "terraform" || c.name === "tofu") return c.args.includes("destroy");
      return c.name === "helm" && (c.args.includes("uninstall") || c.args.includes("delete"));
    },
  ),
  perCommand(
    "crontab_remove",
    "removes every cron job of the user (crontab -r)",
    (c) => c.name === "crontab" && hasFlag(c.args, "r"),
  ),
  perCommand("firewall_change", "flushes or disables the firewall (iptables -F, ufw disable)", (c) => {
    if (c.name === "iptables" || c.name === "ip6tables")
      return hasFlag(c.args, "F", "--flush") || hasFlag(c.args, "X");
    return c.name === "ufw" && (c.args[0] === "disable" || c.args[0] === "reset");
  }),
  perCommand("root_shell", "opens a root shell (sudo -s/-i, sudo su)", (c) => {
    if (!c.via.includes("sudo") && !c.via.includes("doas")) return false;
    return c.name === "" || c.name === "su" || SHELLS.has(c.name);
  }),
];
