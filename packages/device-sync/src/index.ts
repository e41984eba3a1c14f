export { createDeviceSync, sortRows } from "./sync.js";
export type { DeviceSync, DeviceSyncOptions, ProgressEvent, PullResult, Row } from "./sync.js";
export { memoryStore } from "./store.js";
export type { PageCommit, RowChange, StoredRow, SyncState, SyncStore, WalkState } from "./store.js";
export { submitRecord, submissionKey } from "./submit.js";
export type { Submission, SubmitResult } from "./submit.js";
export { createGroundworkClient, createDeviceApi } from "./client.js";
export type { ApiRecord, ApiRow, Connection, DeviceApi, GroundworkClient, RowsPage, RowsQuery } from "./client.js";
export {
  BadRequestError,
  ConflictError,
  DeviceSyncError,
  ForbiddenError,
  SourceGoneError,
  StaleCursorError,
  UnauthorizedError,
  UnavailableError,
} from "./errors.js";
export type { DeviceSyncErrorKind, ErrorAnswer } from "./errors.js";
export type { RetryEvent, RetryPolicy } from "./retry.js";
export { canonicalJson } from "./canonical.js";
export type { components, operations, paths } from "./generated/api.js";
