import { Activity, AlertTriangle, Bell, FileText, Gauge } from "lucide-react";
import Link from "next/link";
import { Card } from "@/components/ui/card";
import { errorRateText, errorSplitText, plural, windowStartText, type HealthFigures } from "./health-format";
import { TroubleLinks } from "./trouble-links";

export interface HealthWindow {
  requestsSince: string;
  currentHourSince: string;
  recordsSince: string;
}

/**
 * The Overview's summary over every organization the viewer sees. Where "sources in trouble"
 * leads depends on the reach: one organization's filtered table, the support board for owners
 * and support, or the per-organization rows below for a member of several.
 */
export function HealthStrip({
  totals,
  window,
  only,
  everyone,
}: {
  totals: HealthFigures;
  window: HealthWindow;
  only: { id: string; name: string } | null;
  everyone: boolean;
}) {
  const { sources, requests } = totals;
  const since = `Since ${windowStartText(window.requestsSince, window.currentHourSince)}, with the current hour so far`;
  return (
    <section aria-labelledby="health-heading" className="mb-6">
      <h2 id="health-heading" className="sr-only">
        Health
      </h2>
      <div className="grid grid-cols-2 gap-2 sm:gap-3 lg:grid-cols-5">
        <Figure
          icon={<AlertTriangle aria-hidden />}
          label="Sources in trouble"
          value={sources.inTrouble}
          testId="health-in-trouble"
          tone={sources.inTrouble > 0 ? "text-red-800" : undefined}
          wide
        >
          {only ? (
            <TroubleLinks organizationId={only.id} organizationName={only.name} sources={sources} />
          ) : sources.total === 0 ? (
            "No sources yet."
          ) : everyone ? (
            <Link className="text-blue-800 underline" href="/dashboard/support">
              Open the support board
            </Link>
          ) : sources.inTrouble > 0 ? (
            <Link className="text-blue-800 underline" href="#organization-health">
              See each organization below
            </Link>
          ) : (
            `${plural(sources.total, "source")}, none in trouble`
          )}
        </Figure>
        <Figure icon={<Activity aria-hidden />} label="API requests, 24 h" value={requests ? requests.total : "—"} testId="health-requests">
          {requests ? since : "Shown to the organization's admins."}
        </Figure>
        <Figure icon={<Gauge aria-hidden />} label="Error rate, 24 h" value={errorRateText(requests)} testId="health-error-rate">
          {requests ? (requests.total === 0 ? "No API requests yet." : errorSplitText(requests)) : "Shown to the organization's admins."}
        </Figure>
        <Figure icon={<FileText aria-hidden />} label="Records today" value={totals.recordsToday} testId="health-records-today">
          Since 00:00 UTC
        </Figure>
        <Figure icon={<Bell aria-hidden />} label="Open alerts" value={totals.openAlerts} testId="health-open-alerts">
          {totals.openAlerts === 0 ? "Nothing is alerting." : "Sources that alerts report in trouble."}
        </Figure>
      </div>
    </section>
  );
}

function Figure({
  icon,
  label,
  value,
  testId,
  tone,
  wide,
  children,
}: {
  icon: React.ReactNode;
  label: string;
  value: number | string;
  testId: string;
  tone?: string;
  wide?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Card className={`min-w-0 ${wide ? "col-span-2 lg:col-span-1" : ""}`}>
      <p className="flex items-center gap-2 text-xs text-slate-600 sm:text-sm [&_svg]:hidden [&_svg]:size-4 sm:[&_svg]:block">
        {icon} {label}
      </p>
      <p className={`mt-1 text-2xl font-semibold ${tone ?? "text-slate-900"}`} data-testid={testId}>
        {typeof value === "number" ? value.toLocaleString("en") : value}
      </p>
      <div className="mt-1 text-xs text-slate-600 sm:text-sm">{children}</div>
    </Card>
  );
}
