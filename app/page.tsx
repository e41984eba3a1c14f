import Link from "next/link";
import { env } from "@/env";
import { HEALTH_PING_TIMEOUT_MS } from "@/server/api/v1/pipeline/health-route";
import { serviceHealth } from "@/server/modules/health/service-health";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const health = await serviceHealth(HEALTH_PING_TIMEOUT_MS, env().GROUNDWORK_COMMIT);
  return (
    <main className="home">
      <h1>Groundwork</h1>
      <p className="tagline">Field data collection: the Customer API and its admin dashboard.</p>
      <section className="card" aria-labelledby="health-heading">
        <h2 id="health-heading">Service health</h2>
        <p>
          Status:{" "}
          <span data-testid="health-status" className={`status-${health.status}`}>
            {health.status}
          </span>
        </p>
        <dl>
          <dt>Database latency</dt>
          <dd>{health.db_latency_ms === null ? "unreachable" : `${health.db_latency_ms} ms`}</dd>
          <dt>Version</dt>
          <dd>{health.version}</dd>
          <dt>Commit</dt>
          <dd>
            <code>{health.commit.slice(0, 12)}</code>
          </dd>
        </dl>
      </section>
      <ul className="links">
        <li>
          <Link href="/dashboard">Sign in to the dashboard</Link>
        </li>
        <li>
          <Link href="/docs">API reference</Link>
        </li>
        <li>
          <a href="/api/v1/openapi.json">OpenAPI document</a>
        </li>
        <li>
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a JSON endpoint, not a page */}
          <a href="/api/v1/health">Health endpoint</a>
        </li>
      </ul>
    </main>
  );
}
