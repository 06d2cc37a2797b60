export * from "./dotenv.js";
export * from "./gateway-schema.js";
export * from "./home.js";
export * from "./json-schema.js";
export * from "./load.js";
export * from "./profile.js";
export * from "./schema.js";
export * from "./set-value.js";
