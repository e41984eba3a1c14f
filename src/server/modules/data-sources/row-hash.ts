import { createHash } from "node:crypto";
import { canonicalJson } from "@/server/lib/canonical-json";

export function hashRowData(data: unknown): string {
  return createHash("sha256").update(canonicalJson(data)).digest("hex");
}

/** The row's canonical JSON (what is stored) with its hash, serialised once. */
export function canonicalRow(data: unknown): { json: string; hash: string } {
  const json = canonicalJson(data);
  return { json, hash: createHash("sha256").update(json).digest("hex") };
}
