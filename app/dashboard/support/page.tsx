import { LoadError } from "@/components/dashboard/load-error";
import { SupportBoard } from "@/components/dashboard/sources/support-board";
import { PageHeader } from "@/components/ui/card";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

type Search = { org?: string; kind?: string; sort?: string; cursor?: string };
const KINDS = ["csv", "postgres_table", "crm_object"] as const;

export default async function SupportBoardPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const organizationId = typeof search.org === "string" && search.org !== "" ? search.org : undefined;
  const kind = KINDS.find((k) => k === search.kind);
  const sort = search.sort === "-since" ? "-since" : "since";
  const cursor = typeof search.cursor === "string" && search.cursor !== "" ? search.cursor : undefined;
  const loaded = await load((caller) => caller.sources.board({ organizationId, kind, sort, cursor }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  // The filter's organization by id, for the picker to show its name: an unknown or unreadable
  // id is said above the board (with its request id) instead of failing the page.
  const chosen = organizationId ? await load((caller) => caller.organizations.get({ organizationId })) : null;
  return (
    <div>
      <PageHeader
        title="Support board"
        description="Every source, in every organization, that needs attention, is in error, or has not completed for more than 3 of its intervals."
      />
      <SupportBoard
        items={loaded.data.items}
        organization={chosen?.ok ? { id: chosen.data.organization.id, name: chosen.data.organization.name } : null}
        organizationProblem={chosen && !chosen.ok ? { message: chosen.message, requestId: chosen.requestId } : null}
        filters={{ organizationId: organizationId ?? "", kind: kind ?? "", sort }}
        paging={{ nextCursor: loaded.data.nextCursor, paged: cursor !== undefined }}
      />
    </div>
  );
}
