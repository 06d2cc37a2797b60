// Files of the docker workspace outside its bind mounts (the container's own /etc, /tmp, …),
// read and written through execs in the container, so the file tools see exactly what its
// commands see and never a copy on this machine. Inside the work folder the workspace uses this
// machine's disk directly: the bind mount makes them the same files.
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { BoundedRead } from "../fs/bounded-read.js";
import type { DockerContainer } from "./docker-container.js";
import { runRaw } from "./docker-exec.js";
import { shellQuote } from "./shell-processes.js";
import type { DirEntry, FileStat, ReadOptions } from "./types.js";

/** Each write command carries this much base64 (the kernel caps one argument at 128 KiB). */
const CHUNK = 96 * 1024;

const sh = (box: DockerContainer, script: string) => runRaw(box, ["bash", "-c", script]);

function typeOfWord(w: string): FileStat["type"] {
  if (w.startsWith("regular")) return "file";
  if (w === "directory") return "directory";
  if (w === "symbolic link") return "symlink";
  return "other";
}

export async function containerStat(box: DockerContainer, file: string): Promise<FileStat | undefined> {
  const r = await sh(box, `stat -L -c '%F|%s|%Y' -- ${shellQuote(file)} 2>/dev/null`);
  if (r.exitCode !== 0) return undefined;
  const [word = "", size = "0", mtime = "0"] = r.stdout.toString("utf8").trim().split("|");
  return { type: typeOfWord(word), size: Number(size), mtimeMs: Number(mtime) * 1000 };
}

export async function containerRead(
  box: DockerContainer,
  file: string,
  o: ReadOptions,
): Promise<BoundedRead> {
  const st = await containerStat(box, file);
  if (!st) return { ok: false, reason: "missing", message: `file not found: ${file}` };
  if (st.type === "directory") return { ok: false, reason: "directory", message: `${file} is a directory` };
  if (st.type !== "file")
    return {
      ok: false,
      reason: "special",
      message: `${file} is not a regular file; only regular files are read`,
    };
  if (st.size > o.maxBytes)
    return {
      ok: false,
      reason: "too_big",
      message: `${file} is ${st.size} bytes, over the ${o.maxBytes}-byte limit`,
    };
  const r = await sh(box, `head -c ${o.maxBytes + 1} -- ${shellQuote(file)}`);
  if (r.exitCode !== 0)
    return {
      ok: false,
      reason: "error",
      message: `cannot read ${file}: ${r.stderr.toString("utf8").trim()}`,
    };
  if (r.stdout.length > o.maxBytes)
    return { ok: false, reason: "too_big", message: `${file} is over the ${o.maxBytes}-byte limit` };
  return { ok: true, data: r.stdout };
}

export async function containerWrite(box: DockerContainer, file: string, text: string): Promise<number> {
  const data = Buffer.from(text, "utf8");
  const b64 = data.toString("base64");
  const target = shellQuote(file);
  const tmp = shellQuote(
    path.posix.join(path.posix.dirname(file), `.iris-${randomBytes(6).toString("hex")}.tmp`),
  );
  const first = await sh(
    box,
    `[ -d ${target} ] && { echo "${file} is a directory" >&2; exit 1; }; mkdir -p -- "$(dirname -- ${target})" && : > ${tmp}`,
  );
  if (first.exitCode !== 0) throw new Error(`cannot write ${file}: ${first.stderr.toString("utf8").trim()}`);
  for (let at = 0; at < b64.length; at += CHUNK) {
    const part = b64.slice(at, at + CHUNK);
    const r = await sh(box, `printf %s '${part}' | base64 -d >> ${tmp}`);
    if (r.exitCode !== 0) {
      await sh(box, `rm -f -- ${tmp}`);
      throw new Error(`cannot write ${file}: ${r.stderr.toString("utf8").trim()}`);
    }
  }
  const done = await sh(box, `mv -f -- ${tmp} "$(readlink -f -- ${target} || echo ${target})"`);
  if (done.exitCode !== 0) throw new Error(`cannot write ${file}: ${done.stderr.toString("utf8").trim()}`);
  return data.length;
}

export async function containerList(box: DockerContainer, dir: string): Promise<DirEntry[]> {
  const r = await sh(
    box,
    `cd -- ${shellQuote(dir)} || exit 1; for f in * .*; do case "$f" in .|..) continue;; esac; ` +
      `if [ -L "$f" ]; then t=l; elif [ -d "$f" ]; then t=d; elif [ -f "$f" ]; then t=f; elif [ -e "$f" ]; then t=o; else continue; fi; ` +
      `printf '%s/%s\\0' "$t" "$f"; done`,
  );
  if (r.exitCode !== 0) throw new Error(`cannot list ${dir}: ${r.stderr.toString("utf8").trim()}`);
  const kinds: Record<string, FileStat["type"]> = { l: "symlink", d: "directory", f: "file", o: "other" };
  return r.stdout
    .toString("utf8")
    .split("\0")
    .filter(Boolean)
    .map((e) => ({ name: e.slice(2), type: kinds[e[0] as string] ?? "other" }));
}

export async function containerRealPath(box: DockerContainer, file: string): Promise<string> {
  const r = await sh(box, `readlink -f -- ${shellQuote(file)}`);
  const out = r.stdout.toString("utf8").trim();
  return r.exitCode === 0 && out ? out : file;
}
