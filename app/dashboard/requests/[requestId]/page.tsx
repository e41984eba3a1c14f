import { LoadError } from "@/components/dashboard/load-error";
import { RequestView } from "@/components/dashboard/requests/request-view";
import { load } from "@/server/api/dashboard/load";

export const dynamic = "force-dynamic";

export default async function RequestPage({ params }: { params: Promise<{ requestId: string }> }) {
  const { requestId } = await params;
  const loaded = await load((caller) => caller.requests.get({ requestId: decodeURIComponent(requestId) }));
  if (!loaded.ok) return <LoadError {...loaded} />;
  return <RequestView detail={loaded.data} />;
}
