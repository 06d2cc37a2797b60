import { describe, expect, it } from "vitest";
import { CwdMarkerReader, markCommand } from "./cwd-marker.js";

function read(nonce: string, chunks: string[]): { out: string; cwd: string | undefined } {
  let out = "";
  const r = new CwdMarkerReader(nonce, (b) => {
    out += b.toString("utf8");
  });
  for (const c of chunks) r.push(Buffer.from(c, "utf8"));
  r.end();
  return { out, cwd: r.cwd };
}

describe("cwd marker", () => {
  it("takes the marker line out of the output, whatever the chunking", () => {
    const stream = "hello\n한국어\n__IRIS_CWD_ab x\n__IRIS_CWD_abc /tmp/a b\n";
    for (let cut = 0; cut <= stream.length; cut++) {
      const r = read("abc", [stream.slice(0, cut), stream.slice(cut)]);
      expect(r).toEqual({ out: "hello\n한국어\n__IRIS_CWD_ab x", cwd: "/tmp/a b" });
    }
  });

  it("keeps output that came after the marker and output that only looks like its start", () => {
    expect(read("n1", ["a\n__IRIS", "_CW"])).toEqual({ out: "a\n__IRIS_CW", cwd: undefined });
    expect(read("n1", ["a\n__IRIS_CWD_n1 /w\n"])).toEqual({ out: "a", cwd: "/w" });
    expect(read("n1", ["a\n__IRIS_CWD_n1 /w\nlate\n"]).out).toBe("alate\n");
    expect(read("n1", ["a\n__IRIS_CWD_n1 /w\n", "late\n"]).out).toBe("alate\n");
  });

  it("never spells the marker inside the script it runs", () => {
    const { script, nonce } = markCommand("echo hi");
    expect(script).not.toContain(`__IRIS_CWD_${nonce}`);
    expect(script.endsWith("\necho hi")).toBe(true);
  });
});
