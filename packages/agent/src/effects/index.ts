export { findEffect, findEffectByOp, listAllEffects } from "./lookup.js";
export { argsFingerprint, callIndexOf, canonicalJson, logicalOpId } from "./op-id.js";
export { EFFECT_OUTCOME_UNCERTAIN, NOT_EXECUTED_CRASH } from "./outcomes.js";
export { type RepairedCall, type RepairOutcome, repairInterruptedCalls } from "./repair.js";
export { type ReceiptOptions, type ReceiptStore, withReceipts } from "./with-receipts.js";
