import { BellRing, CheckCircle2 } from "lucide-react";
import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import { EscapeClosesDetails } from "./escape-closes";
import { STATE_LABELS, type OpenAlerts } from "./types";

/**
 * The top bar's open alerts: how many sources in the viewer's organizations are in trouble, and
 * a list linking to each (a native disclosure, which Esc also closes).
 */
export function AlertsIndicator({ open }: { open: OpenAlerts }) {
  if (open.total === 0) {
    return (
      <span className="inline-flex items-center gap-1 text-xs text-slate-500" data-testid="alerts-indicator">
        <CheckCircle2 className="size-4 text-green-600" aria-hidden /> No open alerts
      </span>
    );
  }
  return (
    <EscapeClosesDetails
      className="relative"
      testId="alerts-indicator"
      summaryClassName="flex cursor-pointer list-none items-center gap-1.5 rounded-md border border-amber-300 bg-amber-50 px-2 py-1 text-xs font-medium whitespace-nowrap text-amber-900 hover:bg-amber-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
      summary={
        <>
          <BellRing className="size-4" aria-hidden />
          {open.total} <span className="sr-only md:not-sr-only">open alert{open.total === 1 ? "" : "s"}</span>
        </>
      }
    >
      <div className="fixed inset-x-3 top-14 z-30 rounded-md border border-slate-200 bg-white p-2 shadow-lg md:absolute md:inset-x-auto md:top-auto md:right-0 md:mt-1 md:w-80">
        <p className="px-2 pb-1 text-xs text-slate-500">Sources in trouble, longest first</p>
        <ul className="space-y-0.5">
          {open.items.map((item) => (
            <li key={item.sourceId}>
              <Link
                href={`/dashboard/organizations/${item.organizationId}/sources/${item.sourceId}`}
                className="block rounded px-2 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
              >
                <span className="block truncate font-medium text-slate-900">{item.sourceName}</span>
                <span className="block text-xs text-slate-600">
                  {STATE_LABELS[item.state] ?? item.state} since <RelativeTime iso={item.since} />
                </span>
                <span className="block truncate text-xs text-slate-500">{item.organizationName}</span>
              </Link>
            </li>
          ))}
        </ul>
        {open.total > open.items.length ? <p className="px-2 pt-1 text-xs text-slate-500">and {open.total - open.items.length} more</p> : null}
      </div>
    </EscapeClosesDetails>
  );
}
