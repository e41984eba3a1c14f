import Link from "next/link";

/**
 * The body of a 403 or 404 page (D522, D525): one heading (an h1 unless the page around it has
 * one), what it means, and the way back. Next's forbidden.tsx / not-found.tsx take no props, so
 * the domain's exact message is not here; the status and the heading say it.
 */
export function RefusalPage({ title, level = 1, children }: { title: string; level?: 1 | 2; children: React.ReactNode }) {
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <div className="max-w-xl space-y-3" data-testid="refusal">
      <Heading className={level === 1 ? "text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl" : "text-lg font-semibold text-slate-900"}>
        {title}
      </Heading>
      <div className="space-y-2 text-sm text-slate-700">{children}</div>
      <Link href="/dashboard/organizations" className="inline-block text-sm text-blue-700 underline">
        Back to your organizations
      </Link>
    </div>
  );
}
