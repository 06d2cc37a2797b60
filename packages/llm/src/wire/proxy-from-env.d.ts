// proxy-from-env ships no type declarations; this is the one function we use.
declare module "proxy-from-env" {
  /** The proxy URL for `url` from *_PROXY and NO_PROXY, or "" when it is reached directly. */
  export function getProxyForUrl(url: string): string;
}
