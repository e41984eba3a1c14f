import type { ZodError } from "zod";

export interface InputIssue {
  field: string;
  message: string;
}

/**
 * A validation failure as one entry per offending field, the path dotted (`probe.1.k`), or
 * `root` for the input as a whole; and the same as one line. Shared by the API's 400s (fromZod)
 * and the command line's usage errors.
 */
export function inputIssues(error: ZodError, root: string): InputIssue[] {
  return error.issues.map((issue) => ({ field: issue.path.map(String).join(".") || root, message: issue.message }));
}

export function summarizeIssues(issues: InputIssue[]): string {
  return issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ");
}
