import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { NEWLINE_MARK, PasteAwareInput, restoreNewlines } from "./line-input.js";

async function through(chunks: (string | Buffer)[]): Promise<string> {
  const tty = new PassThrough() as unknown as NodeJS.ReadStream;
  const input = new PasteAwareInput(tty);
  let out = "";
  input.on("data", (d) => {
    out += d;
  });
  for (const c of chunks) input.write(c);
  input.end();
  await new Promise((r) => input.on("end", r));
  return out;
}

it("keeps a pasted block as one line and restores its line breaks on send", async () => {
  const out = await through(["say \u001b[200~one\r\ntwo\nthree\u001b[201~\r"]);
  expect(out).toBe(`say one${NEWLINE_MARK}two${NEWLINE_MARK}three\r`);
  expect(restoreNewlines(out.slice(0, -1))).toBe("say one\ntwo\nthree");
});

it("finds the paste markers when a chunk splits them", async () => {
  const out = await through(["a\u001b[20", "0~x\ny\u001b[2", "01~\r"]);
  expect(out).toBe(`ax${NEWLINE_MARK}y\r`);
});

it("joins a character split across chunks", async () => {
  const bytes = Buffer.from("안녕", "utf8");
  expect(await through([bytes.subarray(0, 2), bytes.subarray(2, 4), bytes.subarray(4)])).toBe("안녕");
});
