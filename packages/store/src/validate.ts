// Small argument checks for the store's boundary (zod is not a dependency of @iris/store).
import { StoreError } from "./errors.js";

export function requireString(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new StoreError("invalid_input", `${what} must be a non-empty string, got ${describe(value)}`);
  }
  return value;
}

export function optionalString(value: unknown, what: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") {
    throw new StoreError("invalid_input", `${what} must be a string, got ${describe(value)}`);
  }
  return value;
}

export function requireCount(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new StoreError("invalid_input", `${what} must be a finite number >= 0, got ${describe(value)}`);
  }
  return value;
}

export function requireOneOf<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new StoreError(
      "invalid_input",
      `${what} must be one of ${allowed.join(", ")}, got ${describe(value)}`,
    );
  }
  return value as T;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value.slice(0, 40));
  return typeof value;
}
