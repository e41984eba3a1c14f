import { ArrowRight } from "lucide-react";
import Link from "next/link";
import { errorRateText, errorSplitText, plural, type HealthFigures } from "./health-format";
import { TroubleLinks } from "./trouble-links";

interface OrganizationCard {
  id: string;
  name: string;
  memberCount: number;
  activeKeyCount: number;
}

/** One organization on the Overview: its name (to its keys), then its health, each figure leading where it is fixed. */
export function OrganizationHealthCard({ organization, health }: { organization: OrganizationCard; health: HealthFigures | undefined }) {
  const base = `/dashboard/organizations/${organization.id}`;
  return (
    <article className="min-w-0 rounded-lg border border-slate-200 bg-white p-4" data-testid="organization-health" aria-labelledby={`org-${organization.id}`}>
      <h3 id={`org-${organization.id}`} className="min-w-0 font-medium text-slate-900">
        <Link
          href={`${base}/keys`}
          className="group flex min-w-0 items-center justify-between gap-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
        >
          <span className="truncate">{organization.name}</span>
          <ArrowRight className="size-4 shrink-0 text-slate-400 group-hover:text-slate-700" aria-hidden />
        </Link>
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        {plural(organization.activeKeyCount, "active key")} · {plural(organization.memberCount, "member")}
      </p>
      {health ? (
        <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-sm">
          <dt className="text-slate-600">Sources</dt>
          <dd className="min-w-0">
            <TroubleLinks organizationId={organization.id} organizationName={organization.name} sources={health.sources} />
          </dd>
          <dt className="text-slate-600">Requests, 24 h</dt>
          <dd className="min-w-0" data-testid="org-requests">
            {health.requests === null ? (
              <span className="text-slate-600">Shown to admins</span>
            ) : health.requests.total === 0 ? (
              <span className="text-slate-600">
                None yet.{" "}
                <Link className="text-blue-800 underline" href={`${base}/connect`} aria-label={`Connect an app to ${organization.name}`}>
                  Connect an app
                </Link>
              </span>
            ) : (
              <Link className="hover:underline" href={`${base}/requests`}>
                {health.requests.total.toLocaleString("en")} ·{" "}
                <span className={health.requests.errors > 0 ? "font-medium text-red-800" : ""}>{errorRateText(health.requests)} errors</span>
                <span className="block text-xs text-slate-600">{errorSplitText(health.requests)}</span>
              </Link>
            )}
          </dd>
          <dt className="text-slate-600">Records today</dt>
          <dd data-testid="org-records-today">{health.recordsToday.toLocaleString("en")}</dd>
          <dt className="text-slate-600">Open alerts</dt>
          <dd data-testid="org-open-alerts">
            {health.openAlerts > 0 ? (
              <Link
                className="font-medium text-red-800 underline"
                href={`${base}/sources?sort=since`}
                aria-label={`${health.openAlerts} — ${plural(health.openAlerts, "open alert")} in ${organization.name}`}
              >
                {health.openAlerts}
              </Link>
            ) : (
              "0"
            )}
          </dd>
        </dl>
      ) : null}
    </article>
  );
}
