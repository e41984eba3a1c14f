import type { CrmObjectConnector } from "../connectors/crm-object/crm-object-connector";
import type { ConnectionCheck } from "../test-connection";
import { bestMode, captureSupport } from "./capture-modes";
import { unsupportedReason } from "./crm-capture-plan";

/**
 * "Test connection" for a CRM object: the same sample read as any source, plus which capture
 * modes the object supports, from the same describe call a pass makes (its stamp field, whether
 * it is replicateable, the CRM's clock), and why modified_since is not offered when it is not.
 */
export async function crmCaptureModes(connector: CrmObjectConnector, sampleRows: number, timeoutMs: number): Promise<ConnectionCheck> {
  const opened = await connector.openCapture({ batchSize: sampleRows, timeoutMs });
  if (!opened.ok) return { ok: false, reason: opened.reason };
  const capture = opened.value;
  const { description } = capture;
  let rowsSampled = 0;
  for await (const batch of capture.snapshot().batches()) {
    if (!batch.ok) return { ok: false, reason: batch.reason };
    rowsSampled = batch.value.length;
    break;
  }
  const reason = unsupportedReason({
    stampField: description.stampField,
    replicateable: description.replicateable,
    crmNow: description.serverTime,
    object: capture.object,
  });
  const captureModes = await captureSupport({ kind: "crm_object", snapshot: capture.snapshot(), crm: { unsupported: reason } });
  return { ok: true, columns: capture.columns, rowsSampled, captureModes, bestCaptureMode: bestMode(captureModes) };
}
