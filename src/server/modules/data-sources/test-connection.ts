import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Db } from "@/server/db/types";
import type { Connector } from "./connectors/connector";
import { connectorForSource, type ConnectorDeps } from "./connectors/connector-for-source";
import { sealCredentials } from "./credentials/source-credentials";
import type { ActingPrincipal } from "../access/acting-principal";
import { requireSource } from "@/server/modules/access/require-source";
import type { Result } from "@/server/modules/outbound/result";
import { crmCredentialsSchema, crmObjectConfigSchema, describeIssues, postgresCredentialsSchema, postgresTableConfigSchema } from "./source-config";
import { DEFAULT_TIMEOUT_MS } from "./sync/run-sync-pass";
import { isCrmObjectConnector } from "./capture/crm-modified-since";
import { crmCaptureModes } from "./capture/crm-capture-support";
import { bestMode, captureSupport, type ModeSupport } from "./capture/capture-modes";
import type { CaptureMode } from "@/server/db/generated/client";

/** A connector form before it is saved: the same settings create-source takes. */
const connectionSettingsSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("postgres_table"), config: postgresTableConfigSchema, credentials: postgresCredentialsSchema }),
  z.object({ kind: z.literal("crm_object"), config: crmObjectConfigSchema, credentials: crmCredentialsSchema }),
]);
export type ConnectionSettings = z.input<typeof connectionSettingsSchema>;

export type ConnectionCheck =
  | {
      ok: true;
      columns: string[];
      rowsSampled: number;
      /** Every capture mode, best first, and why the target does not support one (D282). */
      captureModes: ModeSupport[];
      /** The mode a new source on this target uses by default. */
      bestCaptureMode: CaptureMode;
    }
  /** The same readable, secret-free reason a pass would store as sync_error. */
  | { ok: false; reason: string };

/** Rows read to prove the read works (key column, permissions, types), not the whole source. */
const PROBE_ROWS = 5;

/**
 * "Test connection" for unsaved settings. NOTE: the connector is built through the same path a
 * pass uses (connectorForSource, from sealed credentials under a throwaway id), so every check a
 * pass makes on the target applies here too and the reasons read the same. Nothing is stored.
 */
export async function testConnection(deps: ConnectorDeps, settings: ConnectionSettings, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ConnectionCheck> {
  const parsed = connectionSettingsSchema.safeParse(settings);
  if (!parsed.success) return { ok: false, reason: `Invalid settings: ${describeIssues(parsed.error)}` };
  const id = randomUUID();
  const connector = connectorForSource(
    { id, kind: parsed.data.kind, config: parsed.data.config, credentialsEncrypted: sealCredentials(deps.secrets, id, parsed.data.credentials) },
    deps,
  );
  return probe(connector, parsed.data.kind, timeoutMs);
}

/** "Test connection" for a saved source, with its stored credentials. */
export async function testSourceConnection(
  deps: ConnectorDeps & { db: Db },
  principal: ActingPrincipal,
  sourceId: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<ConnectionCheck> {
  const source = await requireSource(deps.db, principal, sourceId);
  if (source.kind === "csv") return { ok: false, reason: "CSV sources are uploaded by hand; they have no connection to test" };
  return probe(connectorForSource(source, deps), source.kind, timeoutMs);
}

async function probe(connector: Result<Connector>, kind: "postgres_table" | "crm_object", timeoutMs: number): Promise<ConnectionCheck> {
  if (!connector.ok) return { ok: false, reason: connector.reason };
  if (isCrmObjectConnector(connector.value)) return crmCaptureModes(connector.value, PROBE_ROWS, timeoutMs);
  const opened = await connector.value.fetchSnapshot({ batchSize: PROBE_ROWS, timeoutMs });
  if (!opened.ok) return { ok: false, reason: opened.reason };
  const snapshot = opened.value;
  try {
    let rowsSampled = 0;
    for await (const batch of snapshot.batches()) {
      if (!batch.ok) return { ok: false, reason: batch.reason };
      rowsSampled = batch.value.length;
      break;
    }
    const captureModes = await captureSupport({ kind, snapshot });
    return { ok: true, columns: snapshot.columns, rowsSampled, captureModes, bestCaptureMode: bestMode(captureModes) };
  } finally {
    await snapshot.close();
  }
}
