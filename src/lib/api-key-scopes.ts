/**
 * Resources an API key's scope may name: the spec's examples plus the surfaces it lists. Shared
 * by the server's scope parser and the dashboard's scope grid, so it lives outside src/server: a
 * client component imports it by value (D538).
 */
export const SCOPE_RESOURCES = ["organizations", "users", "instance", "forms", "records", "data_sources", "webhooks", "reports"] as const;
