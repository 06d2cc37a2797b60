/**
 * @iris/testkit: a fake LLM server speaking the real wire protocols (OpenAI Chat Completions,
 * OpenAI Responses, Anthropic Messages, /v1/models) for tests and benchmarks, and fakes of the chat
 * platforms the gateway talks to (Telegram, Discord, Slack, Matrix, Mattermost, Signal, WhatsApp; an SMTP sink and a real Dovecot for e-mail). Node built-ins only.
 */

export { audioFormat, type SpeechRequest, type Transcriber, type Transcription } from "./audio.js";
export { bwrapInstalled, skipWithoutBwrap } from "./bwrap.js";
export { type DiscordUserMessage, FakeDiscord, type FakeDiscordOptions } from "./discord/server.js";
export type { DcBotMessage, DcCall, DcCommand } from "./discord/types.js";
export { type FakeIrc, type FakeIrcOptions, startFakeIrc } from "./irc/server.js";
export { type IrcLine, TestIrcClient } from "./irc/test-irc-client.js";
export { type Dovecot, dovecotInstalled, skipWithoutDovecot, startDovecot } from "./mail/dovecot.js";
export { type SmtpSink, type SmtpSinkOptions, type SunkMail, startSmtpSink } from "./mail/smtp-sink.js";
export { FakeMatrix, type FakeMatrixOptions, type MxEvent } from "./matrix/server.js";
export {
  FakeMattermost,
  type FakeMattermostOptions,
  type MattermostUserPost,
  type MmCall,
} from "./mattermost/server.js";
export {
  PODMAN_PYTHON_IMAGE,
  PODMAN_TEST_IMAGE,
  PODMAN_TEST_USER,
  type Podman,
  podmanInstalled,
  skipWithoutPodman,
  skipWithoutRootlessPodman,
  startPodman,
} from "./podman.js";
export { startFakeLlm } from "./server.js";
export {
  type Ngircd,
  type NgircdOptions,
  ngircdInstalled,
  skipWithoutNgircd,
  startNgircd,
} from "./services/ngircd.js";
export {
  type PostgresServer,
  postgresInstalled,
  skipWithoutPostgres,
  startPostgres,
} from "./services/postgres-server.js";
export { type RedisServer, redisInstalled, skipWithoutRedis, startRedis } from "./services/redis-server.js";
export {
  type Envelope as SignalEnvelope,
  FakeSignal,
  type FakeSignalOptions,
  type SignalFile,
  type SignalSent,
  type SignalUser,
} from "./signal/server.js";
export { signature as slackSignature } from "./slack/events.js";
export { FakeSlack, type FakeSlackOptions, type SlackUserMessage } from "./slack/server.js";
export type { SlackCall, SlackMessage } from "./slack/types.js";
export { type SseFrame, sseFrames } from "./sse-reader.js";
export { SSH_TEST_USER, type Sshd, skipWithoutSshd, sshdInstalled, startSshd } from "./sshd.js";
export { countBodyTokens, countTextTokens } from "./strict/tokens.js";
export { FakeTelegram, type FakeTelegramOptions, type UserMessage } from "./telegram/server.js";
export type { TgBotMessage, TgCall, TgUpdate } from "./telegram/types.js";
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
export {
  FakeWhatsapp,
  type FakeWhatsappOptions,
  type WaSent,
  type WaUserMessage,
} from "./whatsapp/server.js";
