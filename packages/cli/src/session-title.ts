// The heuristic session titles live in host (the editor integration titles its sessions too).
export { ensureTitle, titleFrom } from "@iris/host";
