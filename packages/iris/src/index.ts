export * from "./config/index.js";
