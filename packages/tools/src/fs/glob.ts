// Minimal glob to RegExp: `*` (within a path segment), `**` (any depth), `?`, `[...]`, `{a,b}`.
// A glob without `/` matches the file's base name (`*.ts`), otherwise its relative path.

export type GlobMatcher = (relPath: string) => boolean;

export function compileGlob(glob: string): GlobMatcher {
  const re = globToRegExp(glob);
  const byBase = !glob.includes("/");
  return (relPath) => {
    const p = relPath.split("\\").join("/");
    return re.test(byBase ? p.slice(p.lastIndexOf("/") + 1) : p);
  };
}

export function globToRegExp(glob: string): RegExp {
  let out = "";
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        // `**/` matches zero or more folders; a bare `**` matches anything.
        if (glob[i + 2] === "/") {
          out += "(?:.*/)?";
          i += 2;
        } else {
          out += ".*";
          i += 1;
        }
      } else {
        out += "[^/]*";
      }
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const close = glob.indexOf("]", i + 1);
      if (close === -1) {
        out += "\\[";
      } else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else if (c === "{") {
      braceDepth++;
      out += "(?:";
    } else if (c === "}" && braceDepth > 0) {
      braceDepth--;
      out += ")";
    } else if (c === "," && braceDepth > 0) {
      out += "|";
    } else {
      out += c.replace(/[.+^$()|\\{}]/g, "\\$&");
    }
  }
  return new RegExp(`^${out}$`);
}
