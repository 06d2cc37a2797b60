// One context engine is active per profile (SPEC C5); alternatives register here by name.
import { type ContextEngine, createDefaultContextEngine, type DefaultEngineOptions } from "./engine.js";

export type ContextEngineFactory = (options: DefaultEngineOptions) => ContextEngine;

const factories = new Map<string, ContextEngineFactory>([["default", createDefaultContextEngine]]);

export function registerContextEngine(name: string, factory: ContextEngineFactory): void {
  if (factories.has(name))
    throw new Error(`a context engine named ${JSON.stringify(name)} is already registered`);
  factories.set(name, factory);
}

export function createContextEngine(name = "default", options: DefaultEngineOptions = {}): ContextEngine {
  const factory = factories.get(name);
  if (!factory) {
    throw new Error(
      `unknown context engine ${JSON.stringify(name)}; known: ${[...factories.keys()].join(", ")}`,
    );
  }
  return factory(options);
}
