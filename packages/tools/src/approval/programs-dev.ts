// The allow-list's development tools: git by subcommand, package managers, builds and tests.
// A project's own build and test scripts are trusted as the everyday work of a coding session;
// what reaches outside the project (global installs, publishing, tool config) or throws work
// away is asked about.
import { addsDependency, nodeInstall, pipInstall } from "./installers.js";
import { type Finding, finding, opt, optValues, type ProgramRule, plain } from "./program-rule.js";

type Check = (args: readonly string[]) => Finding | string | undefined;

const ok: Check = () => undefined;
const destructive = (what: string): Finding => finding("destructive_git", what);

/** git subcommands and what makes each one unsafe. Unlisted subcommands (and aliases) ask. */
const GIT: Record<string, Check> = {
  ...Object.fromEntries(
    "status diff log show blame describe shortlog rev-parse rev-list ls-files ls-tree ls-remote cat-file show-ref name-rev merge-base diff-tree diff-index diff-files for-each-ref whatchanged range-diff count-objects fsck help version var check-ignore check-attr cherry grep fetch pull add commit mv init clone merge cherry-pick revert apply am format-patch notes archive bundle verify-commit verify-tag show-branch annotate"
      .split(" ")
      .map((s) => [s, ok]),
  ),
  grep: (a) =>
    opt(a, "O", "--open-files-in-pager", "--ext-grep") ? "git grep -O runs a pager program" : undefined,
  fetch: (a) => (opt(a, "", "--upload-pack") ? "runs a program as upload-pack" : undefined),
  pull: (a) => (opt(a, "", "--upload-pack", "--rebase=interactive") ? "runs a program" : undefined),
  clone: (a) =>
    opt(a, "u", "--upload-pack", "--template", "--config") ? "clone runs or installs programs" : undefined,
  merge: (a) => (opt(a, "s", "--strategy") ? "a custom merge strategy runs a program" : undefined),
  am: (a) => (opt(a, "", "--exec") ? "runs a program" : undefined),
  // --directory moves every path of the patch: `..` writes outside the work folder.
  apply: (a) =>
    optValues(a, undefined, "--directory").some((d) => d.split("/").includes("..") || d.startsWith("/"))
      ? "git apply --directory writes outside the repository"
      : undefined,
  branch: (a) =>
    opt(a, "D") || (opt(a, "d", "--delete") && opt(a, "f", "--force")) || opt(a, "Mf", "--force")
      ? destructive("git branch -D/-M/-f deletes, overwrites or moves a branch")
      : undefined,
  tag: (a) =>
    opt(a, "d", "--delete") || opt(a, "f", "--force") ? destructive("deletes or moves a tag") : undefined,
  remote: (a) =>
    ["add", "set-url", "remove", "rm", "rename", "set-head", "prune"].includes(a[0] ?? "")
      ? "changes where git fetches from and pushes to"
      : undefined,
  // `git credential fill` prints the stored password for a host.
  credential: () => finding("reads_credential", "git credential prints stored passwords"),
  "credential-store": () => finding("reads_credential", "git credential-store prints stored passwords"),
  "credential-cache": () => finding("reads_credential", "git credential-cache prints stored passwords"),
  notes: (a) =>
    ["remove", "prune"].includes(plain(a, ["--ref"])[0] ?? "") ? destructive("deletes notes") : undefined,
  stash: (a) =>
    ["clear", "drop"].includes(a[0] ?? "")
      ? destructive(`git stash ${a[0]} deletes stashed work`)
      : undefined,
  reflog: (a) =>
    ["expire", "delete"].includes(a[0] ?? "")
      ? destructive("deletes reflog entries, the way back to lost commits")
      : undefined,
  reset: (a) =>
    opt(a, "", "--hard", "--merge", "--keep")
      ? destructive("git reset --hard throws away changes")
      : undefined,
  clean: (a) =>
    opt(a, "n", "--dry-run") && !opt(a, "f", "--force")
      ? undefined
      : destructive("git clean deletes untracked files"),
  checkout: (a) => {
    if (opt(a, "fp", "--force", "--patch", "--ours", "--theirs", "--merge") || a.includes("--"))
      return destructive("git checkout of paths overwrites changes");
    const ops = plain(a, ["-b", "-B", "--orphan"]);
    if (opt(a, "bB", "--orphan", "--detach") && ops.length <= 1) return undefined;
    // One operand that looks like a branch; a path (., a file name) discards its changes.
    return ops.length === 1 && !/^\.|\/\.|\*|\.[A-Za-z0-9]{1,5}$/.test(ops[0] as string)
      ? undefined
      : destructive("git checkout of paths overwrites changes");
  },
  switch: (a) =>
    opt(a, "fC", "--force", "--discard-changes", "--force-create")
      ? destructive("git switch discards changes")
      : undefined,
  restore: (a) =>
    opt(a, "S", "--staged") && !opt(a, "W", "--worktree")
      ? undefined
      : destructive("git restore overwrites changes in the work tree"),
  rm: (a) =>
    opt(a, "", "--cached")
      ? undefined
      : opt(a, "f", "--force")
        ? destructive("git rm -f deletes changed files")
        : undefined,
  push: () => undefined,
  rebase: (a) => (opt(a, "xi", "--exec", "--interactive") ? "git rebase --exec runs commands" : undefined),
  worktree: (a) =>
    a[0] === "remove" && opt(a, "f", "--force")
      ? destructive("removes a work tree with its changes")
      : a[0] === "list" || a[0] === "add" || a[0] === "prune"
        ? undefined
        : "changes work trees",
  submodule: (a) =>
    ["status", "summary", "init", "update", "sync"].includes(a[0] ?? "status")
      ? undefined
      : "git submodule foreach runs commands",
  config: (a) =>
    opt(a, "l", "--list", "--get", "--get-all", "--get-regexp") ||
    ["get", "list"].includes(a[0] ?? "") ||
    (plain(a).length === 1 && !opt(a, "", "--unset", "--unset-all", "--add", "--replace-all", "--edit", "-e"))
      ? undefined
      : finding("package_global", "git config sets an option (a pager, hook path or alias runs programs)"),
  gc: (a) =>
    opt(a, "", "--prune", "--aggressive")
      ? destructive("git gc --prune deletes unreachable commits")
      : undefined,
  "update-ref": () => destructive("git update-ref moves or deletes refs directly"),
  "filter-branch": () => destructive("rewrites history"),
  "filter-repo": () => destructive("rewrites history"),
  prune: () => destructive("deletes unreachable objects"),
  "symbolic-ref": (a) =>
    plain(a).length <= 1 && !opt(a, "d", "--delete") ? undefined : destructive("changes a symbolic ref"),
  bisect: (a) => (a[0] === "run" ? "git bisect run runs a command" : undefined),
  replace: () => destructive("replaces objects"),
};

/** Options before a git subcommand that take a value. */
const GIT_VALUED = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--super-prefix",
]);

/** `git -c` settings that only change how output looks or who commits: they run nothing. */
const HARMLESS_GIT_SETTING =
  /^(?:color\.[\w.-]+|user\.\w+|advice\.\w+|log\.\w+|format\.pretty|init\.defaultBranch|diff\.(?:algorithm|renames|colorMoved|noprefix|mnemonicPrefix)|merge\.conflictStyle|core\.quotePath|column\.ui|commit\.gpgSign|tag\.gpgSign)=/i;

function gitUnsafe(args: readonly string[]): Finding | string | undefined {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith("-")) {
    const a = args[i] as string;
    if (a === "-c" && HARMLESS_GIT_SETTING.test(args[i + 1] ?? "")) {
      i += 2;
      continue;
    }
    if (a === "-c" || a.startsWith("--exec-path") || a === "--config-env")
      return "git -c/--exec-path sets options that may run programs";
    i += GIT_VALUED.has(a) ? 2 : 1;
  }
  const sub = args[i];
  if (sub === undefined) return undefined;
  const check = GIT[sub];
  if (!check) return finding("unproven_arguments", `git ${sub} (an alias or an unknown subcommand)`);
  return check(args.slice(i + 1));
}

/** npm/pnpm/yarn/bun subcommands of a project's own work. */
const PACKAGE_SUBS = new Set(
  "test t tst run run-script start build install i ci add remove rm uninstall un update up upgrade ls list ll la outdated audit view info show why explain pack version init create dedupe prune rebuild fund doctor help config cache bin root prefix query search exec x dlx".split(
    " ",
  ),
);

function packageUnsafe(tool: string): Check {
  return (a) => {
    const sub = plain(a, ["--prefix", "-C", "--cwd", "--filter", "-w", "--workspace"])[0] ?? "install";
    if (!PACKAGE_SUBS.has(sub) && !(tool === "yarn" || tool === "pnpm" || tool === "bun"))
      return finding("unproven_arguments", `${tool} ${sub}`);
    if (opt(a, "g", "--global", "--location=global")) return finding("package_global", `${tool} --global`);
    // Another folder's package.json: its scripts are code the check has not seen.
    const elsewhere = optValues(a, "C", "--prefix", "--cwd", "--dir").find((d) =>
      /^[/~]|(?:^|\/)\.\.(?:\/|$)/.test(d),
    );
    if (elsewhere !== undefined) return finding("runs_code", `${tool} in ${elsewhere}`);
    const installing = nodeInstall(tool, a);
    if (installing) return installing;
    if (sub === "config")
      return ["get", "list", "ls"].includes(a[a.indexOf("config") + 1] ?? "list")
        ? undefined
        : finding("package_global", `${tool} config`);
    if (["exec", "x", "dlx", "create"].includes(sub))
      return finding("runs_code", `${tool} ${sub} runs a package's program, downloading it if needed`);
    if (sub === "publish") return finding("unproven_arguments", "publish");
    return undefined;
  };
}

/** Dev tools `npx` may start: the project's own copies (npx fetches one only when it is missing). */
const NPX_TOOLS = new Set(
  "tsc vitest jest mocha ava eslint prettier biome @biomejs/biome tsup vite next nuxt astro webpack rollup esbuild turbo nx vue-tsc svelte-check stylelint markdownlint knip depcheck c8 nyc playwright-test cypress".split(
    " ",
  ),
);

const npx: Check = (a) => {
  // npx's own options come before the tool; what follows the tool is the tool's (`tsc -p`).
  const at = a.findIndex((x) => !x.startsWith("-"));
  if (opt(at === -1 ? a : a.slice(0, at), "yp", "--yes", "--package", "--call", "-c"))
    return finding("runs_code", "npx --yes/--package installs and runs a package");
  const tool = plain(a)[0] ?? "";
  return NPX_TOOLS.has(tool) ? undefined : finding("runs_code", `npx ${tool} may download and run a package`);
};

function subs(list: string, what: string, extra?: Check): Check {
  const allowed = new Set(list.split(" "));
  return (a) => {
    const sub = plain(a)[0];
    if (sub !== undefined && !allowed.has(sub)) return finding("unproven_arguments", `${what} ${sub}`);
    return extra?.(a);
  };
}

const BUILD = "a project's own build or test, the everyday work of a coding session";

function rule(reason: string, unsafe?: Check, writes?: (a: readonly string[]) => string[]): ProgramRule {
  return { reason, ...(unsafe ? { unsafe } : {}), ...(writes ? { writes } : {}) };
}

/** `ninja install`, `meson install`, `mvn install`, `dotnet tool install`: programs put outside the project. */
function installTarget(tool: string): Check | undefined {
  if (!["ninja", "meson", "dotnet", "ant", "sbt"].includes(tool)) return undefined;
  return (a) =>
    plain(a, ["-C", "-f", "-j"]).some((t) => t === "install" || t === "uninstall")
      ? finding("installs_software", `${tool} install`)
      : undefined;
}

/** Where a build writes its output (`-o`, `--outDir`, `--outFile`, `--target-dir`, …): judged by where it lands. */
const compilerOut = (a: readonly string[]) =>
  optValues(
    a,
    "o",
    "--output",
    "--outDir",
    "--out-dir",
    "--outFile",
    "--outfile",
    "--outdir",
    "--out-file",
    "--target-dir",
    "--declarationDir",
  );
/** javac/kotlinc: `-d DIR` is where the classes go. */
const classesOut = (a: readonly string[]) => [...compilerOut(a), ...optValues(a, "d")];

const pip: Check = subs(
  "install uninstall list show freeze check download wheel hash inspect index --version help",
  "pip",
  pipInstall,
);

export const DEV_PROGRAMS: Record<string, ProgramRule> = {
  git: {
    reason: "git by subcommand: reading, committing, branching and fetching keep all work recoverable",
    unsafe: gitUnsafe,
    // `git log/diff --output=FILE`, `format-patch -o DIR`, `archive -o FILE`, `bundle create FILE`:
    // judged by where they land.
    writes: (a) => {
      const after = (sub: string) => a.slice(a.indexOf(sub) + 1);
      return [
        ...optValues(a, undefined, "--output", "--output-directory"),
        ...(a.includes("format-patch") ? optValues(after("format-patch"), "o") : []),
        ...(a.includes("archive") ? optValues(after("archive"), "o") : []),
        ...(a.includes("bundle") && after("bundle")[0] === "create"
          ? plain(after("bundle")).slice(1, 2)
          : []),
      ];
    },
    // `git clone URL DIR`, `git init DIR`: a new folder, asked about only in protected places.
    creates: (a) => {
      const sub = plain(a, [...GIT_VALUED])[0];
      if (sub !== "clone" && sub !== "init") return [];
      const ops = plain(a.slice(a.indexOf(sub) + 1), [
        "-b",
        "--branch",
        "-o",
        "--origin",
        "--depth",
        "--template",
        "-c",
        "--config",
        "--reference",
        "--separate-git-dir",
      ]);
      return sub === "clone" ? ops.slice(1, 2) : ops.slice(0, 1);
    },
  },
  npm: rule(BUILD, packageUnsafe("npm")),
  pnpm: rule(BUILD, packageUnsafe("pnpm")),
  yarn: rule(BUILD, packageUnsafe("yarn")),
  bun: rule(
    BUILD,
    subs("test install i add remove run build pm outdated --version", "bun", packageUnsafe("bun")),
  ),
  npx: rule("starts a dev tool of the project", npx),
  make: rule(BUILD, (a) => {
    if (opt(a, "", "--eval", "-E")) return "make --eval runs given rules";
    const targets = plain(a, [
      "-C",
      "--directory",
      "-f",
      "--file",
      "--makefile",
      "-j",
      "--jobs",
      "-l",
      "-o",
      "-W",
    ]);
    if (targets.some((t) => /^(?:install|uninstall)(?:[-_].*)?$/.test(t)))
      return finding("installs_software", "make install puts programs outside the project");
    // The project's own Makefile is trusted; one from another folder is code the check cannot see.
    const elsewhere = [...optValues(a, "C", "--directory"), ...optValues(a, "f", "--file", "--makefile")];
    return elsewhere.some((d) => d.startsWith("/") || d.startsWith("~") || d.split("/").includes(".."))
      ? finding("runs_code", "make -C/-f outside the work folder")
      : undefined;
  }),
  cmake: rule(BUILD, (a) =>
    a.includes("--install")
      ? finding("installs_software", "cmake --install")
      : a.includes("-P") || a.includes("-E")
        ? "cmake -P/-E runs a script or a command"
        : undefined,
  ),
  ...Object.fromEntries(
    "ninja meson bazel bazelisk mvn gradle ant sbt dotnet tox nox mypy ruff black isort flake8 pylint pyright pytest tsc biome eslint prettier vitest jest mocha ava stylelint jshint golangci-lint gofmt rustfmt clippy-driver shellcheck hadolint actionlint"
      .split(" ")
      .map((n) => [n, rule(BUILD, installTarget(n), compilerOut)]),
  ),
  cargo: rule(
    BUILD,
    subs(
      "build b check c test t run r clippy fmt doc bench tree metadata update fetch clean new init add remove search version --version -V nextest",
      "cargo",
      (a) => addsDependency("cargo", a),
    ),
    compilerOut,
  ),
  go: rule(
    BUILD,
    subs(
      "build test vet fmt run mod list version doc generate get install clean work env help tool",
      "go",
      (a) =>
        a[0] === "env" && opt(a, "wu") ? finding("package_global", "go env -w") : addsDependency("go", a),
    ),
    compilerOut,
  ),
  rustc: rule(BUILD, undefined, compilerOut),
  ...Object.fromEntries(
    "gcc g++ cc c++ clang clang++ swiftc zig".split(" ").map((n) => [n, rule(BUILD, undefined, compilerOut)]),
  ),
  ...Object.fromEntries("javac kotlinc".split(" ").map((n) => [n, rule(BUILD, undefined, classesOut)])),
  pip: rule(BUILD, pip),
  pip3: rule(BUILD, pip),
  uv: rule(
    BUILD,
    subs("run sync lock add remove pip venv tree build version --version python tool", "uv", (a) =>
      a[0] === "tool" && a[1] !== "list"
        ? finding("package_global", "uv tool installs a program")
        : addsDependency("uv", a),
    ),
  ),
  poetry: rule(
    BUILD,
    subs("install run build lock show check add remove update env version --version shell", "poetry", (a) =>
      addsDependency("poetry", a),
    ),
  ),
  deno: rule(BUILD, subs("test fmt lint check info doc bench --version task", "deno")),
  docker: rule(
    "lists, inspects and builds containers; running or removing them is asked about",
    subs(
      "ps images image logs inspect version info build compose stats top history port diff search pull container",
      "docker",
      dockerUnsafe,
    ),
  ),
  "docker-compose": rule("lists, builds and starts the project's services", (a) =>
    dockerUnsafe(["compose", ...a]),
  ),
  podman: rule(
    "lists, inspects and builds containers",
    subs("ps images logs inspect version info build stats top history port", "podman"),
  ),
  python: pythonRule(),
  python3: pythonRule(),
};

function dockerUnsafe(a: readonly string[]): Finding | string | undefined {
  const [sub, verb] = plain(a, ["-f", "--file", "-p", "--project-name"]);
  if (sub === "image" || sub === "container")
    return ["ls", "list", "inspect", "history"].includes(verb ?? "")
      ? undefined
      : finding("unproven_arguments", `docker ${sub} ${verb}`);
  if (sub !== "compose") return undefined;
  return ["ps", "logs", "config", "build", "up", "ls", "images", "top", "version", "pull", "start"].includes(
    verb ?? "",
  )
    ? undefined
    : finding("unproven_arguments", `docker compose ${verb}`);
}

/** `python -m MODULE` for the everyday modules; scripts and -c code are asked about by concerns.ts. */
function pythonRule(): ProgramRule {
  const modules = new Set(
    "pytest pip venv unittest mypy black ruff flake8 pylint isort build tox coverage json.tool pyright".split(
      " ",
    ),
  );
  return rule("runs an installed tool module", (a) => {
    if (a[0] === "-m" && modules.has(a[1] ?? "")) return a[1] === "pip" ? pip(a.slice(2)) : undefined;
    if (a.length > 0 && a.every((x) => ["--version", "-V", "--help", "-h"].includes(x))) return undefined;
    return finding("runs_code", "python runs a script or code");
  });
}
