// Installing software is asked about (T4): a named package brings in code nobody has read (its
// install scripts run at once, its programs later), whatever the package manager. A project's
// own declared dependencies (`npm install`, `npm ci`, `pip install -r requirements.txt`,
// `pip install -e .`, `uv sync`) are the everyday work of a coding session and run unasked.
import { type Finding, finding, plain } from "./program-rule.js";

const installs = (what: string): Finding => finding("installs_software", what);

/** Options of the language package managers that take a value (skipped when finding operands). */
const VALUED = [
  "--prefix",
  "-C",
  "--cwd",
  "--filter",
  "-w",
  "--workspace",
  "--registry",
  "-r",
  "--requirement",
  "-c",
  "--constraint",
  "-e",
  "--editable",
  "-t",
  "--target",
  "--root",
  "-i",
  "--index-url",
  "--extra-index-url",
  "-f",
  "--find-links",
  "--python",
  "-p",
];

/** The project itself (`.`, `./sub`), never a package from a registry, a URL or another folder. */
const isProjectPath = (p: string): boolean => p === "." || p.startsWith("./") || p === "..." || p === "./...";

/** npm/pnpm/yarn/bun: `install|add PKG…` installs PKG; `install`/`ci` alone installs the project's lockfile. */
export function nodeInstall(tool: string, args: readonly string[]): Finding | undefined {
  const ops = plain(args, VALUED);
  const sub = ops[0] ?? (tool === "yarn" ? "install" : undefined);
  if (!sub) return undefined;
  if (sub === "global") return installs(`${tool} global ${ops.slice(1).join(" ")}`.trim());
  const installing = ["install", "i", "add", "in", "isntall", "ins"].includes(sub);
  if (!installing) return undefined;
  if (args.some((a) => a === "--registry" || a.startsWith("--registry=")))
    return installs(`${tool} ${sub} from another registry`);
  const packages = ops.slice(1).filter((p) => !isProjectPath(p));
  return packages.length > 0 ? installs(`${tool} ${sub} ${packages.join(" ")}`) : undefined;
}

/** pip (and `python -m pip`, `uv pip`): named packages, URLs and other indexes install software. */
export function pipInstall(args: readonly string[]): Finding | undefined {
  const ops = plain(args, VALUED);
  if (ops[0] !== "install") return undefined;
  if (args.some((a) => /^(?:-i|--index-url|--extra-index-url|-f|--find-links)(?:=|$)/.test(a)))
    return installs("pip install from another index");
  const packages = ops.slice(1).filter((p) => !isProjectPath(p));
  // `-e PATH` outside the project is another package too.
  args.forEach((a, i) => {
    if ((a === "-e" || a === "--editable") && !isProjectPath(args[i + 1] ?? "."))
      packages.push(args[i + 1] ?? "");
  });
  return packages.length > 0 ? installs(`pip install ${packages.join(" ")}`) : undefined;
}

/** `cargo add`, `uv add`, `poetry add`, `go get`/`go install`: a new dependency or a program. */
export function addsDependency(tool: string, args: readonly string[]): Finding | undefined {
  const ops = plain(args, ["--path", "--git", "--features", "-F", "--group", "-G", "--package", "-p"]);
  const sub = ops[0];
  if (tool === "go") {
    if (sub === "install" && ops.slice(1).some((p) => !isProjectPath(p)))
      return installs(`go install ${ops.slice(1).join(" ")}`);
    const modules = ops.slice(1).filter((p) => !isProjectPath(p));
    if (sub === "get" && modules.length > 0) return installs(`go get ${modules.join(" ")}`);
    return undefined;
  }
  if (sub === "add" && ops.length > 1) return installs(`${tool} add ${ops.slice(1).join(" ")}`);
  if (tool === "uv" && sub === "pip") return pipInstall(args.slice(args.indexOf("pip") + 1));
  return undefined;
}

/**
 * Programs outside the allow-list whose verbs install software: each asks with the reason
 * "installs software" (not merely "an unknown program"), so the question says what it does.
 * Program → its install verbs (empty: the program only installs).
 */
export const INSTALLER_VERBS: Readonly<Record<string, readonly string[]>> = {
  gem: ["install", "update", "i"],
  cargo: ["install"],
  pipx: ["install", "inject", "upgrade", "reinstall", "run"],
  "cargo-binstall": [],
  brew: ["install", "reinstall", "upgrade", "tap", "cask"],
  port: ["install"],
  apt: ["install", "reinstall", "upgrade", "full-upgrade", "dist-upgrade"],
  "apt-get": ["install", "reinstall", "upgrade", "dist-upgrade", "build-dep"],
  aptitude: ["install", "reinstall", "upgrade"],
  dpkg: ["-i", "--install", "--unpack"],
  dnf: ["install", "reinstall", "upgrade", "update", "localinstall"],
  yum: ["install", "reinstall", "upgrade", "update", "localinstall"],
  zypper: ["install", "in", "update", "up"],
  pacman: ["-S", "-U", "-Sy", "-Syu", "-Su"],
  yay: [],
  apk: ["add"],
  snap: ["install", "refresh"],
  flatpak: ["install", "update"],
  nix: ["profile", "install", "shell", "run"],
  "nix-env": ["-i", "--install", "-iA"],
  conda: ["install", "create", "update"],
  mamba: ["install", "create", "update"],
  micromamba: ["install", "create", "update"],
  composer: ["require", "global", "install", "create-project"],
  dotnet: ["tool", "add"],
  rustup: ["install", "toolchain", "component", "target", "update"],
  asdf: ["install", "plugin"],
  mise: ["install", "use"],
  sdk: ["install"],
  deno: ["install"],
  luarocks: ["install"],
  cpan: [],
  cpanm: [],
  opam: ["install"],
  stack: ["install"],
  cabal: ["install"],
  choco: ["install", "upgrade"],
  winget: ["install", "upgrade"],
  scoop: ["install", "update"],
  easy_install: [],
  "easy_install-3": [],
};

/** Why running `name args` installs software, or undefined. */
export function installerFinding(name: string, args: readonly string[]): Finding | undefined {
  const verbs = INSTALLER_VERBS[name];
  if (!verbs) return undefined;
  if (verbs.length === 0) return installs(name);
  const hit = args.find((a) => verbs.includes(a) || (name === "pacman" && /^-S|^-U/.test(a)));
  return hit ? installs(`${name} ${hit}`) : undefined;
}
