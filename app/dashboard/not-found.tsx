import { RefusalPage } from "@/components/dashboard/refusal-page";

// 404 (D522): an id nobody has (or that is not visible from here), or an address with no page.
export default function DashboardNotFound() {
  return (
    <RefusalPage title="Not found">
      <p>Nothing is at this address: the link may be mistyped, or what it named was deleted.</p>
    </RefusalPage>
  );
}
