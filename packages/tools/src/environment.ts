// What a tool may know of its profile (SPEC T): the environment with .env applied (never
// process.env directly), secrets that are registered for redaction when read, a proxy-aware fetch
// behind the private-address guard, and the web and browser settings of config.yaml. The host
// builds one per process; tests build one with `toolEnvironment`.
import type { AssistantMessage } from "@iris/llm";
import { type AddressPolicy, DEFAULT_ADDRESS_POLICY } from "./web/address-guard.js";
import { createWebFetch, type Resolver, type WebFetch } from "./web/http.js";
import { memoryPageIndex, type PageIndex } from "./web/search/page-index.js";

export type SearchBackendName = "searxng" | "brave" | "tavily" | "exa" | "local";

export interface WebSettings {
  search: {
    /** Unset: web_search is not offered. */
    backend?: SearchBackendName;
    baseUrl?: string;
    /** The variable holding the key (default per backend: BRAVE_API_KEY, TAVILY_API_KEY, EXA_API_KEY). */
    apiKeyEnv?: string;
    maxResults: number;
    cacheSeconds: number;
  };
  extract: {
    /** Markdown characters per page before it is cut (with a note). */
    maxChars: number;
    timeoutSeconds: number;
    /** Pages fetched at once by one call. */
    concurrency: number;
  };
  policy: AddressPolicy;
}

export interface BrowserSettings {
  /** Whether the browser_* tools are offered at all (`browser.enabled`). */
  enabled: boolean;
  /** Chromium's path; unset: `chromium`, `chromium-browser`, `google-chrome` on PATH. */
  executable?: string;
  idleSeconds: number;
  actionTimeoutSeconds: number;
  headless: boolean;
}

export interface VisionSettings {
  /** `provider/model` that describes images for a text-only main model; unset: none. */
  model?: string;
}

/** An image for the vision model: base64 data with its media type. */
export interface VisionImage {
  mediaType: string;
  data: string;
}

/** A model call made on the turn's behalf (the vision model), billed like the loop's own (SPEC F3). */
export type ModelCallSink = (message: AssistantMessage, costUsd: number, latencyMs: number) => Promise<void>;

/** Asks the configured vision model about one image (the host makes the call); `onCall` gets the call's message to record its usage. */
export type DescribeImage = (
  image: VisionImage,
  question: string,
  signal: AbortSignal,
  onCall?: ModelCallSink,
) => Promise<string>;

/** execute_code's limits and the tools its programs may call (`code_execution:` in config.yaml). */
export interface CodeSettings {
  tools: readonly string[];
  timeoutSeconds: number;
  maxToolCalls: number;
  maxOutputBytes: number;
}

export const DEFAULT_CODE_SETTINGS: CodeSettings = {
  tools: ["read_file", "write_file", "patch", "search_files", "terminal", "web_search", "web_extract"],
  timeoutSeconds: 300,
  maxToolCalls: 50,
  maxOutputBytes: 50_000,
};

export interface ToolEnvironment {
  /** A variable of the profile's environment (.env wins over the shell). */
  env(name: string): string | undefined;
  /** A credential: read like `env`, and registered so it is redacted from every log and transcript. */
  secret(name: string): string | undefined;
  fetch: WebFetch;
  web: WebSettings;
  browser: BrowserSettings;
  vision: VisionSettings;
  code: CodeSettings;
  /** Set where vision.model is configured: vision_analyze is offered only then. */
  describeImage?: DescribeImage;
  /** The pages the web tools have read (the local search backend's index). */
  pages: PageIndex;
}

export const DEFAULT_WEB_SETTINGS: WebSettings = {
  search: { maxResults: 5, cacheSeconds: 900 },
  extract: { maxChars: 100_000, timeoutSeconds: 20, concurrency: 4 },
  policy: DEFAULT_ADDRESS_POLICY,
};

export const DEFAULT_BROWSER_SETTINGS: BrowserSettings = {
  enabled: false,
  idleSeconds: 120,
  actionTimeoutSeconds: 5,
  headless: true,
};

export interface ToolEnvironmentOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** Called with each secret value read (the host's redaction registry). */
  registerSecret?: (value: string) => void;
  web?: Partial<Omit<WebSettings, "search" | "extract">> & {
    search?: Partial<WebSettings["search"]>;
    extract?: Partial<WebSettings["extract"]>;
  };
  browser?: Partial<BrowserSettings>;
  vision?: VisionSettings;
  code?: Partial<CodeSettings>;
  describeImage?: DescribeImage;
  /** Where read pages are kept (the host gives the store's); default: in memory, this environment only. */
  pages?: PageIndex;
  /** DNS override for tests. */
  resolve?: Resolver;
}

export function toolEnvironment(o: ToolEnvironmentOptions = {}): ToolEnvironment {
  const env = o.env ?? {};
  const web: WebSettings = {
    search: { ...DEFAULT_WEB_SETTINGS.search, ...(o.web?.search ?? {}) },
    extract: { ...DEFAULT_WEB_SETTINGS.extract, ...(o.web?.extract ?? {}) },
    policy: o.web?.policy ?? DEFAULT_WEB_SETTINGS.policy,
  };
  const get = (name: string) => {
    const v = env[name];
    return v === undefined || v === "" ? undefined : v;
  };
  return {
    env: get,
    secret: (name) => {
      const v = get(name);
      if (v) o.registerSecret?.(v);
      return v;
    },
    fetch: createWebFetch({ policy: web.policy, env: get, ...(o.resolve ? { resolve: o.resolve } : {}) }),
    web,
    browser: { ...DEFAULT_BROWSER_SETTINGS, ...(o.browser ?? {}) },
    vision: o.vision ?? {},
    pages: o.pages ?? memoryPageIndex(),
    code: { ...DEFAULT_CODE_SETTINGS, ...(o.code ?? {}) },
    ...(o.describeImage ? { describeImage: o.describeImage } : {}),
  };
}

/** The environment a tool without one gets: nothing set, no key, defaults everywhere. */
export const EMPTY_TOOL_ENVIRONMENT: ToolEnvironment = toolEnvironment();
