import Link from "next/link";
import { sourcesHref, type SourcesHealth } from "./health-format";

const TROUBLES = [
  { field: "error", status: "error", label: "in error", tone: "text-red-800" },
  { field: "needsAttention", status: "needs_attention", label: "needs attention", tone: "text-amber-900" },
  { field: "stale", status: "stale", label: "stale", tone: "text-amber-900" },
] as const;

/**
 * An organization's sources in trouble, each state a link to the sources table filtered by it.
 * A state's figure is what its filter lists (paused sources included there); the headline counts
 * each source once and leaves paused ones out, as the support board does.
 */
export function TroubleLinks({ organizationId, sources, organizationName }: { organizationId: string; sources: SourcesHealth; organizationName: string }) {
  if (sources.total === 0) {
    return (
      <span className="text-slate-600">
        No sources yet.{" "}
        <Link className="text-blue-800 underline" href={sourcesHref(organizationId)} aria-label={`Add one: a source for ${organizationName}`}>
          Add one
        </Link>
      </span>
    );
  }
  const shown = TROUBLES.filter((t) => sources[t.field] > 0);
  if (shown.length === 0) {
    return (
      <Link
        className="text-green-800 hover:underline"
        href={sourcesHref(organizationId)}
        data-testid="sources-all-ok"
        aria-label={`${sources.total} ${sources.total === 1 ? "source" : "sources"}, none in trouble — ${organizationName}`}
      >
        {sources.total} {sources.total === 1 ? "source" : "sources"}, none in trouble
      </Link>
    );
  }
  return (
    <span className="flex flex-wrap gap-x-2 gap-y-1">
      {shown.map((t, index) => (
        <span key={t.field}>
          <Link
            className={`font-medium underline decoration-dotted underline-offset-2 hover:decoration-solid ${t.tone}`}
            href={sourcesHref(organizationId, t.status)}
            data-testid={`trouble-${t.status}`}
            aria-label={`${sources[t.field]} ${t.label} — ${organizationName}`}
          >
            {sources[t.field]} {t.label}
          </Link>
          {index < shown.length - 1 ? (
            <span aria-hidden className="ml-2 text-slate-400">
              ·
            </span>
          ) : null}
        </span>
      ))}
    </span>
  );
}
