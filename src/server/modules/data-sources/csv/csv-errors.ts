import { AppError } from "@/server/errors/app-error";

/** 100000 → "100 000", as the limits are written in the docs. */
export function formatNumber(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

/** A refusal of the whole file: nothing of it is kept. */
export function invalidCsv(reason: string): AppError {
  return new AppError("bad_request", `Invalid CSV: ${reason}. Nothing was changed.`);
}
