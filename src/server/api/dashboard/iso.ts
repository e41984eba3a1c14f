import { z } from "zod";

/** Timestamps cross the dashboard's wire as ISO strings, the same on the server caller and the browser. */
export const isoString = z.string();
export const iso = (date: Date) => date.toISOString();
export const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);
