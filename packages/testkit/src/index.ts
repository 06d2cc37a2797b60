/**
 * @iris/testkit: a fake LLM server speaking the real wire protocols (OpenAI Chat Completions,
 * OpenAI Responses, Anthropic Messages, /v1/models) for tests and benchmarks. Node built-ins only.
 */
export { startFakeLlm } from "./server.js";
export { SSH_TEST_USER, type Sshd, skipWithoutSshd, sshdInstalled, startSshd } from "./sshd.js";
export { countBodyTokens, countTextTokens } from "./strict/tokens.js";
export { type TempDir, tempDir } from "./temp-dir.js";
export type {
  ApiMode,
  FakeLlm,
  FakeLlmOptions,
  Fault,
  Handler,
  RecordedRequest,
  ScriptedReply,
  ScriptedToolCall,
  Step,
} from "./types.js";
export { type SitePage, sitePages } from "./web/pages.js";
export { textPdf } from "./web/pdf.js";
export { solidPng } from "./web/png.js";
export {
  type SearchApi,
  type SearchFake,
  type SearchFakeOptions,
  startSearchFake,
} from "./web/search-fakes.js";
export { startTestSite, type TestSite } from "./web/site.js";
