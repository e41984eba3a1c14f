import { redirect } from "next/navigation";
import { RequestSearch } from "@/components/dashboard/requests/request-search";
import { PageHeader } from "@/components/ui/card";
import { extractRequestId } from "@/server/modules/request-log/lookup";

export const dynamic = "force-dynamic";

/**
 * The search field's target: the request id in whatever was pasted (a bare id, a JSON body, a log
 * line: D422) goes on to its page; text without one stays here and says so.
 */
export default async function RequestsPage({ searchParams }: { searchParams: Promise<{ id?: string }> }) {
  const { id } = await searchParams;
  const pasted = typeof id === "string" ? id.trim() : "";
  const found = pasted ? extractRequestId(pasted) : null;
  if (found) redirect(`/dashboard/requests/${found}`);
  return (
    <div>
      <PageHeader
        title="Find a request"
        description="Every answer of the Customer API and of the dashboard carries a request_id (also in the X-Request-Id header). Paste one, or the text around it, to see what happened: the key, the route, the status, the error, and what changed in that organization around it."
      />
      {pasted ? (
        <p role="alert" className="mb-3 max-w-xl text-sm text-red-900" data-testid="request-search-no-id">
          No request id in what you pasted. A request id is <code className="font-mono">req_</code> followed by 24 letters and digits, as in the
          answer&apos;s <code className="font-mono">request_id</code> or its X-Request-Id header.
        </p>
      ) : null}
      <RequestSearch id="request-search-page" className="max-w-md" />
    </div>
  );
}
