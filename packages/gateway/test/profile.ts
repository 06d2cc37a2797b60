// What the gateway's end-to-end tests share: a profile folder whose config points the model at
// the fake LLM server, with the test's own extra lines (gateway settings and platforms), and a
// readable text of a chat message the fake received.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm } from "@iris/testkit";

export type ChatMessage = { role: string; content?: unknown };

export const textOf = (m: ChatMessage | undefined) =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");

/** config.yaml in `home` (with a `work` folder beside it): the fake as the model, then `lines`. */
export function writeGatewayProfile(home: string, fake: FakeLlm, lines: string[]): void {
  mkdirSync(join(home, "work"), { recursive: true });
  writeFileSync(
    join(home, "config.yaml"),
    [
      "model: {provider: fake, name: fake-model}",
      `providers: {fake: {base_url: "${fake.baseUrl}", api_mode: chat_completions}}`,
      ...lines,
      "",
    ].join("\n"),
  );
}
