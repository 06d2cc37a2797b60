// Files through the outbox (the send_file tool, SPEC U3): a file is sent once per key, whatever
// the retries; a file a crash left on its way is never sent again on restart (its bytes are not
// kept), and never as its text stand-in either. Real store, temp file.
import { join } from "node:path";
import { openStore, type Store } from "@iris/host";
import { getLogger } from "@iris/llm";
import { type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { OutboundFile, SendOptions, SendResult } from "../src/adapter.js";
import type { ChatAddress } from "../src/message.js";
import { Deliverer } from "../src/pipeline/deliver.js";
import { type GatewayState, openGatewayTables } from "../src/state/index.js";
import { MemoryAdapter } from "./memory-adapter.js";

class FileAdapter extends MemoryAdapter {
  readonly files: { to: ChatAddress; file: OutboundFile }[] = [];
  failFiles = 0;
  constructor() {
    super();
    this.reportsHandOver = true;
  }
  async sendFile(to: ChatAddress, file: OutboundFile, opts: SendOptions = {}): Promise<SendResult> {
    await opts.handingOver?.();
    if (this.failFiles > 0) {
      this.failFiles--;
      throw new Error("connection reset");
    }
    this.files.push({ to, file });
    return {};
  }
  // Markdown → the platform's own form, as Slack's mrkdwn does.
  render(markdown: string): string {
    return markdown.replace(/\*\*(.+?)\*\*/g, "*$1*");
  }
}

let dir: TempDir;
let store: Store;
let state: GatewayState;
beforeEach(async () => {
  dir = tempDir("iris-deliver-file");
  store = openStore(join(dir.path, "state.db"));
  state = (await openGatewayTables(store)).state;
});
afterEach(async () => {
  await store.close();
  dir.cleanup();
});

const to = { platform: "mem", chatId: "ann" };
const file = { name: "chart.png", data: Buffer.from("png bytes"), caption: "the **chart**" };

describe("Deliverer.deliverFile", () => {
  it("sends a file once per key, its caption in the platform's form, retrying a failed send", async () => {
    const adapter = new FileAdapter();
    const deliverer = new Deliverer(state, adapter, getLogger(), async () => {});
    adapter.failFiles = 1;
    expect(await deliverer.deliverFile("file:s:t:1", to, file)).toBe("sent");
    expect(await deliverer.deliverFile("file:s:t:1", to, file)).toBe("skipped");
    expect(adapter.files.map((f) => [f.file.name, f.file.caption, f.file.data.toString()])).toEqual([
      ["chart.png", "the *chart*", "png bytes"],
    ]);
    expect((await state.outbound("file:s:t:1#file"))?.state).toBe("sent");
  });

  it("a file a crash left pending is marked uncertain at restart, and nothing is sent for it", async () => {
    const adapter = new FileAdapter();
    await state.recordOutbound({
      logicalKey: "file:s:t:2#file",
      platform: "mem",
      chatId: "ann",
      threadId: null,
      text: "📎 chart.png",
    });
    const deliverer = new Deliverer(state, adapter, getLogger(), async () => {});
    expect(await deliverer.recover()).toEqual({ resent: 0, uncertain: 1 });
    expect(adapter.files).toEqual([]);
    expect(adapter.sent).toEqual([]);
    expect((await state.outbound("file:s:t:2#file"))?.state).toBe("uncertain");
  });

  it("names the platform that cannot send files", async () => {
    const deliverer = new Deliverer(state, new MemoryAdapter(), getLogger(), async () => {});
    await expect(deliverer.deliverFile("file:s:t:3", to, file)).rejects.toThrow("mem cannot send files");
  });
});
