// The heuristic session titles live in host (the editor integration titles its sessions too);
// a session names itself through Session.ensureTitle.
export { titleFrom } from "@iris/host";
