import { redirect } from "next/navigation";
import { RequestSearch } from "@/components/dashboard/requests/request-search";
import { PageHeader } from "@/components/ui/card";

export const dynamic = "force-dynamic";

/** The search field's target: a pasted id goes on to its page (quotes and spaces trimmed). */
export default async function RequestsPage({ searchParams }: { searchParams: Promise<{ id?: string }> }) {
  const { id } = await searchParams;
  const pasted = typeof id === "string" ? id.trim().replace(/^["'`]+|["'`,.;]+$/g, "") : "";
  if (pasted) redirect(`/dashboard/requests/${encodeURIComponent(pasted)}`);
  return (
    <div>
      <PageHeader
        title="Find a request"
        description="Every answer of the Customer API carries a request_id (also in the X-Request-Id header). Paste one to see what happened: the key, the route, the status, the error, and what changed in that organization around it."
      />
      <RequestSearch id="request-search-page" className="max-w-md" />
    </div>
  );
}
