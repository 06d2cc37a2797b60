// A profile that cannot run (a broken config.yaml, no provider or key) is not an authentication
// problem: ACP's -32000 "Authentication required" makes an editor look for auth methods, and Iris
// advertises none. It is reported as an internal error (-32603) whose message says what to fix
// and whose data names the kind and the file (SPEC E2).
import * as acp from "@agentclientprotocol/sdk/unstable";

export function configError(message: string, configPath?: string): acp.RequestError {
  return new acp.RequestError(-32603, `Iris is not set up: ${message}`, {
    kind: "config_error",
    ...(configPath ? { config: configPath } : {}),
  });
}
