import { canonicalJson, sha256Hex } from "./canonical.js";
import { createDeviceApi, type ApiRecord, type Connection } from "./client.js";
import type { RetryEvent } from "./retry.js";

export interface Submission {
  organizationId: string;
  formId: string;
  createdBy: string;
  fieldValues: Record<string, unknown>;
  /**
   * Defaults to a digest of the submission itself (`ds1-` + SHA-256 of its canonical JSON), so
   * calling again after any failure never records it twice. Pass your own (a UUID kept with the
   * pending submission) when two identical submissions are distinct records.
   */
  idempotencyKey?: string;
}

export interface SubmitResult {
  record: ApiRecord;
  /** True when the server answered with the stored answer of an earlier call with the same key. */
  replayed: boolean;
  idempotencyKey: string;
  requestId: string;
}

/** The key `submitRecord` uses when none is given. */
export async function submissionKey(submission: Omit<Submission, "idempotencyKey">): Promise<string> {
  const { organizationId, formId, createdBy, fieldValues } = submission;
  return `ds1-${await sha256Hex(canonicalJson({ organizationId, formId, createdBy, fieldValues }))}`;
}

/**
 * POST /organizations/{org}/forms/{form}/records with an Idempotency-Key (the key needs
 * `records:write`). 429, 5xx and network errors are retried with the same key and the same bytes;
 * a typed error is thrown otherwise (errors.ts). Safe to call again after any failure.
 */
export async function submitRecord(connection: Connection, submission: Submission, onRetry?: (event: RetryEvent) => void): Promise<SubmitResult> {
  const idempotencyKey = submission.idempotencyKey ?? (await submissionKey(submission));
  const api = createDeviceApi(connection, onRetry);
  const result = await api.createRecord(
    { organizationId: submission.organizationId, formId: submission.formId },
    { created_by: submission.createdBy, field_values: submission.fieldValues },
    idempotencyKey,
  );
  return { ...result, idempotencyKey };
}
