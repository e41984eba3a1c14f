import { env } from "@/env";

// The service's own database, as the process that runs it knows it: connectors must never be
// pointed at it (a tenant would read the service's tables). Entry points register the URL they
// prepared (the embedded server's included); otherwise DATABASE_URL is it.

let registered: string | undefined;

/** `undefined` forgets it (tests). Returns the one registered before, for a test to put back. */
export function registerServiceDatabase(url: string | undefined): string | undefined {
  const previous = registered;
  registered = url;
  return previous;
}

export function serviceDatabaseUrl(): string | undefined {
  return registered ?? env().DATABASE_URL;
}
