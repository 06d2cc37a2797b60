export {
  configureLogging,
  createLogger,
  getLogger,
  LOG_LEVELS,
  type LogFields,
  type Logger,
  type LoggerOptions,
  type LogLevel,
} from "./logger.js";
export {
  clearSecrets,
  REDACTED,
  redact,
  redactValue,
  registeredSecrets,
  registerSecret,
  registerSecrets,
} from "./redact.js";
