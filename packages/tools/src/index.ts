export * from "./define.js";
