import type { ZodError } from "zod";
import { AppError } from "./app-error";

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

export interface FromZodOptions {
  /** The field an issue about the input as a whole is filed under (a bare name: `name`). */
  root?: string;
  /** What was invalid, for the message's opening: `Invalid rule. …` (default: `request`). */
  subject?: string;
}

/**
 * Every zod failure becomes this one 400, whichever door it came through (the API's input, a
 * domain function's own check, a dashboard route's filters): each offending field named in the
 * message and in `details.issues`, never only the first.
 */
export function fromZod(error: ZodError, options: FromZodOptions = {}): AppError {
  const issues = inputIssues(error, options.root ?? "(body)");
  return new AppError("bad_request", `Invalid ${options.subject ?? "request"}. ${summarizeIssues(issues)}`, { details: { issues } });
}
