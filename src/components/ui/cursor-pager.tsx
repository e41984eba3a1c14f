import Link from "next/link";

/**
 * The links under a list paged by cursor: back to the first page once past it, on to the next
 * while there is one; nothing when the list fits one page.
 */
export function CursorPager({
  label,
  firstHref,
  nextHref,
  nextLabel,
  nextTestId,
  className = "",
}: {
  /** The navigation landmark's name, e.g. "More sources". */
  label: string;
  /** Set when this is not the first page. */
  firstHref: string | null;
  /** Set when there is a next page. */
  nextHref: string | null;
  nextLabel: string;
  nextTestId?: string;
  className?: string;
}) {
  if (!firstHref && !nextHref) return null;
  return (
    <nav aria-label={label} className={`flex gap-4 text-sm ${className}`}>
      {firstHref ? (
        <Link className="text-blue-700 hover:underline" href={firstHref}>
          ← First page
        </Link>
      ) : null}
      {nextHref ? (
        <Link className="text-blue-700 hover:underline" data-testid={nextTestId} href={nextHref}>
          {nextLabel}
        </Link>
      ) : null}
    </nav>
  );
}
