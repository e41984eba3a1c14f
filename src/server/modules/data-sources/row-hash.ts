import { createHash } from "node:crypto";
import { canonicalJson } from "@/server/lib/canonical-json";

export function hashRowData(data: unknown): string {
  return createHash("sha256").update(canonicalJson(data)).digest("hex");
}
