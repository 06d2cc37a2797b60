export * from "./agent-level/schemas.js";
export {
  DANGEROUS_PATTERNS,
  type Detection,
  type DetectOptions,
  detectCommand,
  type PatternMatch,
  patternCatalogue,
} from "./approval/detect.js";
export { type FileAccessCheck, STRICT_KEYS } from "./approval/file-access.js";
export { HARDLINE_RULES } from "./approval/hardline.js";
export { ApprovalMemory } from "./approval/memory.js";
export * from "./approval/policy.js";
export type { CommandRule } from "./approval/rule.js";
export { fileWriteSubject, shellQuote } from "./approval/subjects.js";
export * from "./approval/types.js";
export { ChromiumMissingError, findChromium } from "./browser/find-chromium.js";
export { closeBrowsers } from "./browser/pool.js";
export * from "./define.js";
export { DEFAULT_MAX_RESULT_CHARS } from "./dispatch/cap.js";
export * from "./dispatch/dispatch.js";
export * from "./environment.js";
export { binaryKind, describeBinary, formatBytes, isBinaryContent } from "./fs/binary.js";
export * from "./json-schema/parameters.js";
export * from "./mcp/config.js";
export { McpConnection, type McpState } from "./mcp/connection.js";
export * from "./mcp/manager.js";
export { MAX_TOOL_NAME, mcpToolName, mcpToolset } from "./mcp/names.js";
export * from "./mcp/prompts.js";
export * from "./mcp/resources.js";
export { binScript, everythingStdio, filesystemStdio } from "./mcp/test-servers.js";
export * from "./mcp/user-input.js";
export * from "./registry/availability.js";
export * from "./registry/describe.js";
export * from "./registry/load-builtin.js";
export * from "./registry/logger.js";
export * from "./registry/menu.js";
export * from "./registry/registry.js";
export * from "./registry/spec.js";
export * from "./registry/toolsets.js";
export * from "./skills/library.js";
export * from "./skills/skill-file.js";
export { commandEnv, isSecretEnvName } from "./terminal/env.js";
export { type ManagedProcess, ProcessManager } from "./terminal/process-manager.js";
export { pathOf, taskCwdOf } from "./terminal/scope.js";
export { processSecrets, SecretRegistry } from "./terminal/secrets.js";
export { TaskCwds } from "./terminal/task-cwd.js";
export { type AddressPolicy, BlockedAddressError, privateKind } from "./web/address-guard.js";
export type { WebFetch, WebRequest, WebResponse } from "./web/http.js";
export { SEARCH_BACKENDS } from "./web/search/backends.js";
export {
  memoryPageIndex,
  type PageIndex,
  pageSnippet,
  pageTerms,
  searchTerms,
} from "./web/search/page-index.js";
export { DockerWorkspace, dockerWorkspace } from "./workspace/docker.js";
export {
  type DockerMount,
  type DockerSettings,
  LABEL_PROFILE,
  type OrphanContainer,
  orphanContainers,
} from "./workspace/docker-container.js";
export { editorWorkspace } from "./workspace/editor.js";
export { isWorkspaceUnavailable, WorkspaceUnavailable } from "./workspace/errors.js";
export { LocalWorkspace, localWorkspace } from "./workspace/local.js";
export { SshWorkspace, sshWorkspace } from "./workspace/ssh.js";
export { SwitchableWorkspace } from "./workspace/switchable.js";
export type * from "./workspace/types.js";
