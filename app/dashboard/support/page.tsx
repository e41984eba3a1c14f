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
  const loaded = await load(async (caller) => ({
    board: await caller.sources.board({ organizationId, kind, sort, cursor }),
    organizations: await caller.organizations.list(),
  }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  return (
    <div>
      <PageHeader
        title="Support board"
        description="Every source, in every organization, that needs attention, is in error, or has not completed for more than 3 of its intervals."
      />
      <SupportBoard
        items={loaded.data.board.items}
        organizations={loaded.data.organizations.map((o) => ({ id: o.id, name: o.name }))}
        filters={{ organizationId: organizationId ?? "", kind: kind ?? "", sort }}
        paging={{ nextCursor: loaded.data.board.nextCursor, paged: cursor !== undefined }}
      />
    </div>
  );
}
