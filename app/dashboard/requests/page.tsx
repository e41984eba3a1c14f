import { redirect } from "next/navigation";
import { LoadError } from "@/components/dashboard/load-error";
import { requestLogParams, requestLogQuery } from "@/components/dashboard/requests/request-log-params";
import { RequestLogView } from "@/components/dashboard/requests/request-log-view";
import { load } from "@/server/api/dashboard/load";
import { extractRequestId } from "@/server/modules/request-log/lookup";

export const dynamic = "force-dynamic";

/**
 * The request log browser (D432): the instance's log for owners and support, their
 * organizations' for admins. `?id=` is still the lookup field's target: the request id in
 * whatever was pasted (a bare id, a JSON body, a log line: D422) goes on to its page; text
 * without one stays here and says so.
 */
export default async function RequestsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const pasted = typeof raw.id === "string" ? raw.id.trim() : "";
  const found = pasted ? extractRequestId(pasted) : null;
  if (found) redirect(`/dashboard/requests/${found}`);
  const { filters, cursor } = requestLogParams(raw);
  const loaded = await load(async (caller) => ({
    me: await caller.viewer.me(),
    page: await caller.requests.list(requestLogQuery(filters, undefined, cursor)),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  const { me, page } = loaded.data;
  const instance = me.isInstanceOwner || me.isSupport;
  return (
    <>
      {pasted ? (
        <p role="alert" className="mb-3 max-w-xl text-sm text-red-900" data-testid="request-search-no-id">
          No request id in what you pasted. A request id is <code className="font-mono">req_</code> followed by 24 letters and digits, as in the answer&apos;s{" "}
          <code className="font-mono">request_id</code> or its X-Request-Id header.
        </p>
      ) : null}
      <RequestLogView
        page={page}
        filters={filters}
        cursor={cursor}
        basePath="/dashboard/requests"
        scope={
          instance ? { kind: "instance" } : { kind: "organizations", names: me.memberships.filter((m) => m.role === "admin").map((m) => m.organizationName) }
        }
      />
    </>
  );
}
