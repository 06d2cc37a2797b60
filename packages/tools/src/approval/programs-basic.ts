// The allow-list's everyday programs: shell built-ins, readers, text tools and file tools whose
// writes are judged by where they land (locations.ts). Anything not listed here or in
// programs-dev.ts / programs-ops.ts is asked about.
import { finding, opt, optValues, type ProgramRule, plain } from "./program-rule.js";

const READS = "reads files or prints text; no argument makes it write, delete or run anything";
const NAMES = "prints names, sizes or facts about the system; reads no file contents";
const SHELL = "a shell built-in that only changes the shell's own state";

function same(names: string, rule: ProgramRule): Record<string, ProgramRule> {
  return Object.fromEntries(names.split(" ").map((n) => [n, rule]));
}

const reader: ProgramRule = { reason: READS };
const names: ProgramRule = { reason: NAMES, namesOnly: true };
const builtin: ProgramRule = { reason: SHELL, namesOnly: true };

/** Operands after the first (a pattern or script): the files a text tool reads. */
const grepRecursive = (a: readonly string[]) => opt(a, "rR", "--recursive", "--dereference-recursive");

export const BASIC_PROGRAMS: Record<string, ProgramRule> = {
  ...same(
    "cat tac nl head tail wc cut tr rev od hexdump strings fold expand unexpand paste join fmt pr column comm cmp diff diff3 md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum base32 base64 zcat bzcat xzcat zstdcat zless zgrep zdiff jq look wdiff colordiff numfmt shuf",
    reader,
  ),
  ...same(
    "ls dir vdir pwd echo printf true false : test [ seq yes sleep stat realpath readlink basename dirname whoami id groups uptime w who users nproc lscpu lsblk lsusb lspci free vmstat iostat uname arch tty locale getconf which whereis du df pgrep pidof lsof cal printenv logname hostid whatis apropos info tldr help jobs wait",
    names,
  ),
  ...same(
    "cd pushd popd dirs export unset local declare typeset readonly shift return exit break continue read getopts let umask ulimit unalias shopt set disown bg fg type",
    builtin,
  ),
  env: { reason: "without a program it prints the (scrubbed) environment", namesOnly: true },
  man: {
    reason: NAMES,
    namesOnly: true,
    // A pager, a browser or a preprocessor given on the line is a program man runs.
    unsafe: (a) =>
      opt(a, "PHp", "--pager", "--html", "--preprocessor", "--config-file")
        ? finding("unproven_arguments", "man -P/-H/-p run a given program")
        : undefined,
  },
  hash: {
    reason: "lists or forgets remembered program paths",
    namesOnly: true,
    unsafe: (a) => (opt(a, "p") ? "hash -p makes a name run another program" : undefined),
  },
  // `history -w FILE` / `-a FILE` write the history list into FILE (a start-up file, say).
  history: {
    reason: NAMES,
    namesOnly: true,
    writes: (a) => (opt(a, "wa") ? plain(a, ["-d"]).slice(0, 1) : []),
  },
  date: {
    reason: NAMES,
    namesOnly: true,
    unsafe: (a) => (opt(a, "s", "--set") ? "date -s sets the clock" : undefined),
  },
  hostname: {
    reason: NAMES,
    namesOnly: true,
    unsafe: (a) =>
      plain(a).length > 0 || opt(a, "bF", "--file", "--boot") ? "sets the host name" : undefined,
  },
  ps: {
    reason: NAMES,
    namesOnly: true,
    // BSD-style `e` shows every process's environment, keys included.
    unsafe: (a) =>
      a.some((x) => !x.startsWith("-") && x.includes("e")) || a.includes("-E")
        ? finding("reads_credential", "ps e")
        : undefined,
  },
  top: { reason: NAMES, namesOnly: true, unsafe: (a) => (opt(a, "b") ? undefined : "top is interactive") },
  file: {
    reason: READS,
    unsafe: (a) => (opt(a, "C", "--compile") ? "file -C writes a magic file" : undefined),
  },
  grep: { reason: READS, recursive: grepRecursive },
  egrep: { reason: READS, recursive: grepRecursive },
  fgrep: { reason: READS, recursive: grepRecursive },
  rg: {
    reason: READS,
    recursive: () => true,
    unsafe: (a) =>
      opt(a, "", "--pre", "--pre-glob", "--search-zip") ? "rg --pre runs a program on each file" : undefined,
  },
  ag: { reason: READS, recursive: () => true },
  ack: {
    reason: READS,
    recursive: () => true,
    unsafe: (a) => (opt(a, "", "--pager") ? "ack --pager runs a program" : undefined),
  },
  fd: {
    reason: NAMES,
    namesOnly: true,
    unsafe: (a) => (opt(a, "xX", "--exec", "--exec-batch") ? "fd -x runs a command per file" : undefined),
  },
  tree: { reason: NAMES, namesOnly: true, writes: (a) => optValues(a, "o") },
  find: {
    reason: "lists files by name and type",
    namesOnly: true,
    // -exec/-delete are judged by concerns.ts (find_exec); the -f* actions write files.
    writes: (a) =>
      a.flatMap((x, i) => (/^-f(?:print0?|printf|ls)$/.test(x) && a[i + 1] ? [a[i + 1] as string] : [])),
  },
  sort: {
    reason: READS,
    writes: (a) => optValues(a, "o", "--output"),
    unsafe: (a) => (opt(a, "", "--compress-program") ? "sort --compress-program runs a program" : undefined),
  },
  // `uniq IN OUT` writes OUT.
  uniq: { reason: READS, writes: (a) => plain(a, ["-f", "-s", "-w"]).slice(1) },
  iconv: { reason: READS, writes: (a) => optValues(a, "o", "--output") },
  xxd: { reason: READS, writes: (a) => plain(a, ["-c", "-g", "-l", "-s", "-o", "-n"]).slice(1) },
  awk: awkRule(),
  gawk: awkRule(),
  mawk: awkRule(),
  nawk: awkRule(),
  // -e/w commands are judged by concerns.ts (text_tool_exec); -i rewrites its files in place.
  sed: {
    reason: "prints edited text; with -i it rewrites its files, judged by where they are",
    writes: (a) =>
      opt(a, "i", "--in-place")
        ? plain(a, ["-e", "-f", "-l"]).slice(optValues(a, "e", "--expression").length ? 0 : 1)
        : [],
  },
  yq: { reason: READS, writes: (a) => (opt(a, "i", "--inplace") ? plain(a).slice(1) : []) },
  tee: { reason: "copies its input to files, judged by where they are", writes: (a) => plain(a) },
  // A new folder overwrites nothing: only protected places (system, profile, hooks, autostart) ask.
  mkdir: {
    reason: "makes folders; only protected places ask",
    creates: (a) => plain(a, ["-m"]),
    namesOnly: true,
  },
  touch: {
    reason: "creates files or sets their times, judged by where they are",
    writes: (a) => plain(a, ["-d", "-r", "-t"]),
    namesOnly: true,
  },
  truncate: {
    reason: "sets a file's size, judged by where it is",
    writes: (a) => plain(a, ["-s", "-r"]),
    namesOnly: true,
  },
  rmdir: {
    reason: "removes empty folders, judged by where they are",
    writes: (a) => plain(a),
    namesOnly: true,
  },
  // rm -r is asked about by patterns-files.ts; single files are judged by where they are.
  rm: { reason: "removes files, judged by where they are", writes: (a) => plain(a), namesOnly: true },
  unlink: { reason: "removes a file, judged by where it is", writes: (a) => plain(a), namesOnly: true },
  cp: copyRule("copies files, the destination judged by where it is"),
  mv: {
    ...copyRule("moves files: the sources and the destination are judged by where they are"),
    writes: (a) => [
      ...plain(a, ["-t", "-S", "--target-directory", "--suffix"]),
      ...optValues(a, "t", "--target-directory"),
    ],
  },
  // A link is a way to write where it points later in the line (`ln -s ~/.bashrc rc && echo x > rc`):
  // its target is judged as written too.
  ln: {
    reason: "links files; the link and where it points are judged by where they are",
    namesOnly: true,
    writes: (a) =>
      plain(a, ["-t", "-S", "--target-directory", "--suffix"]).concat(
        optValues(a, "t", "--target-directory"),
      ),
  },
  install: {
    ...copyRule("copies files with modes, the destination judged by where it is"),
    unsafe: (a) =>
      optValues(a, "m", "--mode").some(specialBits) || opt(a, "og", "--owner", "--group")
        ? { key: "permission_change", description: "install sets setuid/setgid bits or an owner" }
        : undefined,
  },
  rsync: {
    ...copyRule("copies files, the destination judged by where it is"),
    unsafe: (a) => {
      if (
        opt(
          a,
          "e",
          "--rsh",
          "--rsync-path",
          "--delete",
          "--delete-before",
          "--delete-during",
          "--delete-after",
          "--delete-excluded",
          "--del",
          "--remove-source-files",
          "--daemon",
        )
      )
        return "rsync deletes files or runs a program (--delete, --remove-source-files, -e)";
      return plain(a).some((x) => /^[^/]*:/.test(x))
        ? finding("network_tool", "rsync to or from another machine")
        : undefined;
    },
  },
  split: {
    reason: "splits a file into pieces in a folder judged by where it is",
    writes: (a) => plain(a, ["-b", "-l", "-n", "-a", "-C"]).slice(1, 2).concat("."),
  },
  mktemp: { reason: "makes a temporary file", namesOnly: true, writes: (a) => optValues(a, "p", "--tmpdir") },
  dd: {
    reason: "copies bytes between files judged by where they are",
    writes: (a) => a.filter((x) => x.startsWith("of=")).map((x) => x.slice(3)),
  },
  patch: {
    reason: "applies a diff to files of the folder it runs in",
    // `-d DIR` applies the diff inside DIR: that folder is where it writes.
    writes: (a) => [
      ...optValues(a, "o", "--output"),
      ...plain(a, ["-p", "-i", "-d", "-o", "-B", "-r"]).slice(0, 1),
      ...(optValues(a, "d", "--directory").length ? optValues(a, "d", "--directory") : ["."]),
    ],
  },
  chmod: {
    reason: "changes modes of files judged by where they are; setuid/setgid bits are asked about",
    namesOnly: true,
    writes: (a) => plain(a).slice(opt(a, "", "--reference") ? 0 : 1),
    unsafe: (a) => {
      // --reference copies another file's bits, setuid included.
      if (opt(a, "", "--reference"))
        return { key: "permission_change", description: "copies another file's mode (chmod --reference)" };
      return specialBits(plain(a)[0] ?? "")
        ? { key: "permission_change", description: "sets setuid, setgid or sticky bits" }
        : undefined;
    },
  },
  tar: {
    reason: "lists or packs archives; extraction writes below the folder it runs in",
    // Packing walks the folders it is given: an archive of ~ holds its keys.
    recursive: (a) => {
      const first = a[0] ?? "";
      return /^-?[^-]*[cru]/.test(first) || opt(a, "", "--create", "--append", "--update");
    },
    writes: (a) => {
      const first = a[0] ?? "";
      const mode = first.startsWith("-") ? first : `-${first}`;
      const out =
        /^-[^-]*[cru]/.test(mode) || opt(a, "", "--create", "--append", "--update")
          ? optValues(a, "f", "--file")
          : [];
      if (/^-[^-]*x/.test(mode) || opt(a, "", "--extract", "--get"))
        out.push(optValues(a, "C", "--directory")[0] ?? ".");
      if (/^-[^-]*[cru]/.test(mode) && !first.startsWith("-") && /f/.test(first))
        out.push(plain(a).slice(1)[0] ?? "");
      return out.filter((x) => x !== "" && x !== "-");
    },
    unsafe: (a) =>
      opt(
        a,
        "IFP",
        "--to-command",
        "--checkpoint-action",
        "--use-compress-program",
        "--info-script",
        "--new-volume-script",
        "--rsh-command",
        "--rmt-command",
        "--absolute-names",
        "--index-file",
        "--remove-files",
      )
        ? "tar runs a program, deletes its sources or writes outside the folder (--to-command, --checkpoint-action, -I, -F, -P, --remove-files)"
        : undefined,
  },
  zip: {
    reason: "packs an archive judged by where it is",
    recursive: (a) => opt(a, "r", "--recurse-paths"),
    writes: (a) => plain(a, ["-b", "-n", "-t", "-tt", "-P"]).slice(0, 1),
    unsafe: (a) => {
      if (a.some((x) => x === "-TT" || x.startsWith("--unzip-command"))) return "zip -TT runs a program";
      // -m moves the files into the archive: the originals are deleted.
      const short = a.filter((x) => /^-[A-Za-z0-9]+$/.test(x) && x !== "-TT");
      return opt(short, "m", "--move") || a.includes("--move")
        ? "zip -m deletes the files it packs"
        : undefined;
    },
  },
  unzip: {
    reason: "lists an archive, or extracts it below the folder it runs in",
    writes: (a) => (opt(a, "lvtpZ") ? [] : [optValues(a, "d")[0] ?? "."]),
  },
  ...same("gzip gunzip bzip2 bunzip2 xz unxz zstd unzstd lz4", {
    reason: "compresses files in place or to its output, judged by where they are",
    writes: (a) =>
      opt(a, "clt", "--stdout", "--to-stdout", "--list", "--test") ? [] : plain(a, ["-S", "--suffix"]),
  }),
  kill: {
    reason: "sends a signal to processes named by number",
    namesOnly: true,
    unsafe: (a) => {
      if (a.some((x) => /^-(?:9|KILL|SIGKILL)$/i.test(x))) return "kill -9 cannot be caught";
      return plain(a).every((x) => /^(?:[1-9]\d*|%\d*)$/.test(x))
        ? undefined
        : "signals a process group or every process";
    },
  },
};

/** A chmod mode that sets setuid, setgid or sticky bits (`4755`, `u+s`, `g=rxs`, `+t`). */
function specialBits(mode: string): boolean {
  return /^[=+-]?0*[1-7][0-7]{3}$/.test(mode) || /[ugoa]*[+=][^,]*[st]/.test(mode);
}

function copyRule(reason: string): ProgramRule {
  return {
    reason,
    recursive: (a) => opt(a, "rRa", "--recursive", "--archive"),
    writes: (a) => {
      const t = optValues(a, "t", "--target-directory");
      if (t.length) return t;
      const ops = plain(a, ["-S", "--suffix", "-T"]);
      return ops.length >= 2 ? [ops[ops.length - 1] as string] : ["."];
    },
  };
}

function awkRule(): ProgramRule {
  return {
    reason: "prints computed text (system(), pipes and file output are judged by concerns.ts)",
    unsafe: (a) =>
      a.some((x, i) => (x === "-i" && a[i + 1] === "inplace") || x === "-iinplace")
        ? "gawk -i inplace rewrites files"
        : undefined,
  };
}
